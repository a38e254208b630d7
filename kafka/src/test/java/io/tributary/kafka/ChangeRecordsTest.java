package io.tributary.kafka;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.apply.ChangeOrigin;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

/** Format version 1 of the records, byte for byte, as docs/kafka.md describes it. */
class ChangeRecordsTest {

	private static final TableLayout LAYOUT = new TableLayout(new TableId("shop", "orders"),
			List.of(column("region", 0, ValueKind.TEXT), column("id", 1, ValueKind.INTEGER),
					column("amount", 2, ValueKind.DECIMAL), column("big", 3, ValueKind.UNSIGNED_BIGINT),
					column("data", 4, ValueKind.BYTES), column("note", 5, ValueKind.TEXT),
					column("created_at", 6, ValueKind.TEMPORAL)),
			new int[] { 0, 1 });

	private final ChangeRecords records = new ChangeRecords(LAYOUT);

	@Test
	void theKeyIsAJsonArrayOfTheKeyValues() {
		assertThat(text(this.records.key(new Object[] { "eu", 7L }))).isEqualTo("[\"eu\",7]");
	}

	@Test
	void theValueCarriesVersionOperationTableOriginAndTheRow() {
		Object[] row = { "eu", 7L, new BigDecimal("19.90"), new BigInteger("18446744073709551615"),
				new byte[] { (byte) 0xde, (byte) 0xad }, "say \"hi\"\n", "2026-03-01 12:00:07.123456" };
		ChangeOrigin origin = new ChangeOrigin(Position.of("mysql-bin.000042", 1337), 1_772_366_407_000L);

		assertThat(text(this.records.value(row, origin))).isEqualTo("{\"v\":1,\"op\":\"upsert\",\"table\":\"shop.orders\","
				+ "\"position\":\"" + Position.of("mysql-bin.000042", 1337) + "\",\"sourceTime\":\"2026-03-01T12:00:07Z\","
				+ "\"row\":{\"region\":\"eu\",\"id\":7,\"amount\":\"19.90\",\"big\":18446744073709551615,"
				+ "\"data\":\"3q0=\",\"note\":\"say \\\"hi\\\"\\n\",\"created_at\":\"2026-03-01 12:00:07.123456\"}}");
	}

	@Test
	void aSnapshotRowHasNoPositionNorSourceTime() {
		Object[] row = { "eu", 7L, null, null, null, null, "2026-03-01 12:00:07" };

		assertThat(text(this.records.value(row, null))).contains("\"position\":null,\"sourceTime\":null")
			.contains("\"amount\":null");
	}

	private static Column column(String name, int ordinal, ValueKind kind) {
		return new Column(name, ordinal, "x", "x", kind, false, StandardCharsets.UTF_8, 0, 2, List.of(), true);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
