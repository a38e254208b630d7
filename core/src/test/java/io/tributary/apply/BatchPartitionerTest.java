package io.tributary.apply;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BatchPartitionerTest {

	/** Rows are {id, code, tenant, seq}; code is unique and spread out, (tenant, seq) clustered. */
	private static final UniqueIndex BY_CODE = new UniqueIndex("uk_code", new int[] { 1 }, List.of("code"));

	private static final UniqueIndex BY_TENANT = new UniqueIndex("uk_tenant_seq", new int[] { 2, 3 },
			List.of("tenant", "seq"));

	@Test
	void sortsByTheMostClusteredIndexAndCutsWhereTheLeadingValueChanges() {
		List<Object[]> rows = shuffled(tenants(6, 7));
		BatchPartitioner partitioner = new BatchPartitioner(List.of(BY_CODE, BY_TENANT), 10, 1000, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(rows);

		assertThat(plan.index()).isEqualTo(BY_TENANT);
		assertThat(plan.batches()).hasSize(6);
		for (int i = 0; i < 6; i++) {
			List<Object[]> batch = plan.batches().get(i);
			assertThat(batch).as("batch %d holds exactly one tenant, in seq order", i)
				.extracting((row) -> row[2] + "/" + row[3])
				.containsExactly(tenant(i, 7).stream().map((row) -> row[2] + "/" + row[3]).toArray(String[]::new));
		}
		assertThat(plan.stripes()).hasSize(2);
		assertThat(plan.stripes().get(0)).containsExactly(plan.batches().get(0), plan.batches().get(2),
				plan.batches().get(4));
		assertThat(plan.stripes().get(1)).containsExactly(plan.batches().get(1), plan.batches().get(3),
				plan.batches().get(5));
	}

	@Test
	void extendsABatchToTheEndOfARunThatStartedAtItsBeginning() {
		List<Object[]> rows = new ArrayList<>(tenant(0, 12));
		rows.addAll(tenant(1, 12));
		BatchPartitioner partitioner = new BatchPartitioner(List.of(BY_TENANT), 10, 1000, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(shuffled(rows));

		assertThat(plan.batches()).extracting(List::size).containsExactly(12, 12);
	}

	@Test
	void neverExtendsPastTheStatementLimit() {
		BatchPartitioner partitioner = new BatchPartitioner(List.of(BY_TENANT), 10, 11, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(shuffled(tenant(0, 12)));

		assertThat(plan.batches()).extracting(List::size).containsExactly(10, 2);
	}

	@Test
	void splitsARunTooLongForOneStatement() {
		BatchPartitioner partitioner = new BatchPartitioner(List.of(BY_TENANT), 10, 1000, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(shuffled(tenant(0, 30)));

		assertThat(plan.batches()).extracting(List::size).containsExactly(10, 10, 10);
	}

	@Test
	void cutsAtTheByteTarget() {
		BatchPartitioner partitioner = new BatchPartitioner(List.of(BY_CODE), 1000, 1000, 1);

		BatchPlan plan = partitioner.plan(shuffled(tenants(2, 3)));

		assertThat(plan.batches()).hasSize(6).allSatisfy((batch) -> assertThat(batch).hasSize(1));
	}

	@Test
	void ordersNullsFirstAndValuesAsTheServerWould() {
		UniqueIndex slot = new UniqueIndex("uk_slot", new int[] { 1 }, List.of("slot"));
		List<Object[]> rows = List.of(row(1, 30L), row(2, null), row(3, 4L), row(4, null), row(5, -2L));
		BatchPartitioner partitioner = new BatchPartitioner(List.of(slot), 2, 1000, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(rows);

		assertThat(plan.batches().stream().flatMap(List::stream).map((row) -> row[1]))
			.containsExactly(null, null, -2L, 4L, 30L);
		assertThat(plan.batches()).extracting(List::size).containsExactly(2, 2, 1);
	}

	@Test
	void keepsArrivalOrderWithoutCandidates() {
		List<Object[]> rows = shuffled(tenants(3, 5));
		BatchPartitioner partitioner = new BatchPartitioner(List.of(), 4, 1000, Long.MAX_VALUE);

		BatchPlan plan = partitioner.plan(rows);

		assertThat(plan.index()).isNull();
		assertThat(plan.batches()).extracting(List::size).containsExactly(4, 4, 4, 3);
		assertThat(plan.batches().stream().flatMap(List::stream)).containsExactlyElementsOf(rows);
		assertThat(plan.stripes()).singleElement().isEqualTo(plan.batches());
	}

	@Test
	void measuresRepeatedLeadingValuesNullsAndConsecutiveIntegers() {
		UniqueIndex single = new UniqueIndex("uk", new int[] { 1 }, List.of("v"));
		assertThat(BatchPartitioner.clustering(List.of(row(1, 10L), row(2, 20L), row(3, 30L)), single)).isZero();
		assertThat(BatchPartitioner.clustering(List.of(row(1, 10L), row(2, 11L), row(3, 12L), row(4, 40L)), single))
			.isEqualTo(0.5);
		assertThat(BatchPartitioner.clustering(List.of(row(1, null), row(2, null), row(3, 7L)), single))
			.isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(BatchPartitioner.clustering(
				List.of(row(1, BigInteger.valueOf(5)), row(2, BigInteger.valueOf(6))), single)).isEqualTo(0.5);
		assertThat(BatchPartitioner.clustering(tenants(2, 5), BY_TENANT)).isEqualTo(0.8);
		assertThat(BatchPartitioner.clustering(List.of(row(1, new byte[] { 1 }), row(2, new byte[] { 1 })), single))
			.isEqualTo(0.5);
	}

	@Test
	void comparesCanonicalValues() {
		ValueOrder order = ValueOrder.INSTANCE;
		assertThat(order.compare(null, 1L)).isNegative();
		assertThat(order.compare(5L, BigInteger.valueOf(4))).isPositive();
		assertThat(order.compare(new java.math.BigDecimal("1.50"), new java.math.BigDecimal("1.5"))).isZero();
		assertThat(order.compare("apple", "Banana")).isNegative();
		assertThat(order.compare(new byte[] { (byte) 0x80 }, new byte[] { 0x7f })).isPositive();
		assertThat(order.compare(1.5d, 2L)).isNegative();
		assertThat(order.compare(3L, "3")).isNegative();
	}

	private static List<Object[]> tenants(int tenants, int rowsEach) {
		List<Object[]> rows = new ArrayList<>();
		for (int t = 0; t < tenants; t++) {
			rows.addAll(tenant(t, rowsEach));
		}
		return rows;
	}

	/** A tenant's rows in (tenant, seq) order. */
	private static List<Object[]> tenant(int tenant, int rows) {
		List<Object[]> result = new ArrayList<>();
		for (int seq = 0; seq < rows; seq++) {
			long id = tenant * 1000L + seq;
			result.add(new Object[] { id, "code-" + Long.toHexString(id * 2654435761L), (long) tenant, (long) seq });
		}
		return result;
	}

	private static Object[] row(long id, Object value) {
		return new Object[] { id, value };
	}

	private static List<Object[]> shuffled(List<Object[]> rows) {
		List<Object[]> copy = new ArrayList<>(rows);
		Collections.shuffle(copy, new Random(42));
		return copy;
	}

}
