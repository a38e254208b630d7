package io.tributary.pipeline;

import org.junit.jupiter.api.Test;

import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table that ends once copied (snapshot only) ends at a transaction boundary: it takes the whole
 * of every transaction before its end and nothing from it on, whether the reader or the control
 * thread fixes the end.
 */
class TableIntakeTest {

	private static Position at(long offset) {
		return Position.of("bin.000001", offset);
	}

	@Test
	void theEndAskedForMidTransactionFallsAfterThatTransaction() {
		TableIntake intake = new TableIntake();
		intake.endsOnce();
		assertThat(intake.takes(at(100))).isTrue();
		intake.endSoon();
		// The reader is still inside the transaction that began at 100: the control thread cannot end there.
		assertThat(intake.endBy(at(100))).isNull();
		assertThat(intake.takes(at(100))).as("the rest of the transaction").isTrue();
		assertThat(intake.takes(at(200))).as("the next transaction").isFalse();
		assertThat(intake.endBy(at(300))).isEqualTo(at(200));
		assertThat(intake.takes(at(300))).isFalse();
		assertThat(intake.delivered(at(300))).as("handed nothing past its end").isEqualTo(at(200));
	}

	@Test
	void anIdleTableEndsAtTheReadersBoundary() {
		TableIntake intake = new TableIntake();
		intake.endsOnce();
		assertThat(intake.takes(at(100))).isTrue();
		assertThat(intake.endBy(at(150))).as("no end asked for").isNull();
		intake.endSoon();
		assertThat(intake.endBy(at(150))).isEqualTo(at(150));
		assertThat(intake.takes(at(150))).isFalse();
		assertThat(intake.delivered(at(400))).isEqualTo(at(150));
	}

	@Test
	void aTableThatStreamsOnTakesEverything() {
		TableIntake intake = new TableIntake();
		assertThat(intake.takes(at(100))).isTrue();
		intake.endSoon();
		assertThat(intake.takes(at(200))).isTrue();
		assertThat(intake.delivered(at(400))).isEqualTo(at(400));
	}

}
