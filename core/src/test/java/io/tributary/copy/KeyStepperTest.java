package io.tributary.copy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

class KeyStepperTest {

	private static final BigInteger MAX = BigInteger.valueOf(1_000_000_000L);

	@Test
	void aDenseKeySpaceStepsByTheTargetRows() {
		KeyStepper stepper = new KeyStepper(false, MAX, 1000, 1_000_000);
		assertThat(stepper.nextUpper(BigInteger.ZERO, 1000)).isEqualTo(BigInteger.valueOf(1000));
		stepper.landed(1000, 1000);
		assertThat(stepper.nextUpper(BigInteger.valueOf(1000), 1000)).isEqualTo(BigInteger.valueOf(2000));
		assertThat(stepper.sparse()).isFalse();
	}

	@Test
	void theStepFollowsTheDensityButAtMostDoublesPerChunk() {
		KeyStepper stepper = new KeyStepper(false, MAX, 1000, 1_000_000);
		stepper.nextUpper(BigInteger.ZERO, 1000);
		// Half the key values hold a row: twice the width gives the wanted rows.
		stepper.landed(500, 1000);
		assertThat(stepper.nextUpper(BigInteger.valueOf(1000), 1000)).isEqualTo(BigInteger.valueOf(3000));
		// A bigger target may not jump more than twice the previous step.
		assertThat(stepper.nextUpper(BigInteger.valueOf(3000), 10_000)).isEqualTo(BigInteger.valueOf(7000));
		assertThat(stepper.step()).isEqualTo(4000);
	}

	@Test
	void aDenserStretchShrinksTheStepAtOnce() {
		KeyStepper stepper = new KeyStepper(false, MAX, 4000, 1_000_000);
		stepper.landed(4000, 4000);
		assertThat(stepper.nextUpper(BigInteger.ZERO, 500)).isEqualTo(BigInteger.valueOf(500));
	}

	@Test
	void theStepNeverExceedsTheRowsTheSparseThresholdAllows() {
		KeyStepper stepper = new KeyStepper(false, MAX, 1000, 1_000_000);
		for (int i = 0; i < 20; i++) {
			stepper.nextUpper(BigInteger.ZERO, 1000);
		}
		// No feedback yet counts as dense.
		assertThat(stepper.step()).isEqualTo(1000);
		stepper.landed(250, 1000);
		for (int i = 0; i < 20; i++) {
			stepper.nextUpper(BigInteger.ZERO, 1000);
		}
		assertThat(stepper.step()).isEqualTo(4000);
		stepper.landed(0, 100_000);
		for (int i = 0; i < 20; i++) {
			stepper.nextUpper(BigInteger.ZERO, 1000);
		}
		assertThat(stepper.step()).isEqualTo((long) (1000 / KeyStepper.SPARSE_BELOW));
	}

	@Test
	void theStepStaysWithinTheMostRowsAChunkMayHold() {
		KeyStepper stepper = new KeyStepper(false, MAX, 5000, 2000);
		assertThat(stepper.step()).isEqualTo(2000);
		stepper.landed(500, 2000);
		for (int i = 0; i < 10; i++) {
			stepper.nextUpper(BigInteger.ZERO, 2000);
		}
		assertThat(stepper.step()).isEqualTo(2000);
	}

	@Test
	void aSparseKeySpaceIsReportedOnlyAfterAFullWindow() {
		KeyStepper stepper = new KeyStepper(false, MAX, 1000, 1_000_000);
		for (int i = 1; i < KeyStepper.WINDOW; i++) {
			stepper.landed(1, 1000);
			assertThat(stepper.sparse()).as("after %d chunks", i).isFalse();
		}
		stepper.landed(1, 1000);
		assertThat(stepper.sparse()).isTrue();
	}

	@Test
	void theDensityIsJudgedOverTheRecentChunksOnly() {
		KeyStepper stepper = new KeyStepper(false, MAX, 1000, 1_000_000);
		for (int i = 0; i < KeyStepper.WINDOW; i++) {
			stepper.landed(1000, 1000);
		}
		stepper.landed(0, 1000);
		stepper.landed(0, 1000);
		assertThat(stepper.sparse()).as("two empty chunks after dense ones").isFalse();
		stepper.landed(0, 1000);
		stepper.landed(100, 1000);
		assertThat(stepper.density()).isEqualTo(0.025);
		assertThat(stepper.sparse()).isTrue();
	}

	@Test
	void aChunkReachingTheHighestKeyEndsThePlanUnlessTheHighestKeyGrew() {
		KeyStepper stepper = new KeyStepper(false, BigInteger.valueOf(2500), 1000, 1_000_000);
		assertThat(stepper.reachesMax(stepper.nextUpper(BigInteger.valueOf(1000), 1000))).isFalse();
		BigInteger last = stepper.nextUpper(BigInteger.valueOf(2000), 1000);
		assertThat(stepper.reachesMax(last)).isTrue();
		assertThat(stepper.raiseMax(BigInteger.valueOf(2400))).isFalse();
		assertThat(stepper.raiseMax(BigInteger.valueOf(9000))).isTrue();
		assertThat(stepper.reachesMax(last)).isFalse();
	}

	@Test
	void unsignedBigintKeysStepAboveTheSignedRange() {
		BigInteger top = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
		KeyStepper stepper = new KeyStepper(true, top, 1000, 1_000_000);
		BigInteger lower = top.subtract(BigInteger.valueOf(5000));
		BigInteger upper = stepper.nextUpper(lower, 1000);
		assertThat(stepper.reachesMax(upper)).isFalse();
		assertThat(stepper.key(upper)).isEqualTo(top.subtract(BigInteger.valueOf(4000)));
		assertThat(KeyStepper.number(top)).isEqualTo(top);
	}

	@Test
	void signedKeysConvertBackToLongs() {
		KeyStepper stepper = new KeyStepper(false, BigInteger.TEN, 1000, 1_000_000);
		assertThat(stepper.key(BigInteger.valueOf(-42))).isEqualTo(-42L);
		assertThat(KeyStepper.number(-42L)).isEqualTo(BigInteger.valueOf(-42));
	}

	@Test
	void appliesToASingleIntegerKeyOnly() {
		Column id = column("id", 0, "bigint", ValueKind.UNSIGNED_BIGINT);
		Column other = column("b", 1, "int", ValueKind.INTEGER);
		Column name = column("name", 2, "varchar", ValueKind.TEXT);
		Column year = column("y", 3, "year", ValueKind.INTEGER);
		List<Column> columns = List.of(id, other, name, year);
		TableId table = new TableId("s", "t");
		assertThat(KeyStepper.appliesTo(new TableLayout(table, columns, new int[] { 0 }))).isTrue();
		assertThat(KeyStepper.appliesTo(new TableLayout(table, columns, new int[] { 1 }))).isTrue();
		assertThat(KeyStepper.appliesTo(new TableLayout(table, columns, new int[] { 0, 1 }))).isFalse();
		assertThat(KeyStepper.appliesTo(new TableLayout(table, columns, new int[] { 2 }))).isFalse();
		assertThat(KeyStepper.appliesTo(new TableLayout(table, columns, new int[] { 3 }))).isFalse();
	}

	private static Column column(String name, int ordinal, String type, ValueKind kind) {
		return new Column(name, ordinal, type, type, kind, kind == ValueKind.UNSIGNED_BIGINT,
				(kind == ValueKind.TEXT) ? StandardCharsets.UTF_8 : null, 0, 0, List.of(), false);
	}

}
