package io.tributary.pipeline;

import org.junit.jupiter.api.Test;

import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

class LagTest {

	@Test
	void countsBytesToTheHeadInTheSameFile() {
		assertThat(ReplicationRun.lagBytes(Position.of("b.000003", 1_000), Position.of("b.000003", 5_000))).isEqualTo(4_000);
	}

	@Test
	void isZeroAtOrPastTheHead() {
		assertThat(ReplicationRun.lagBytes(Position.of("b.000003", 5_000), Position.of("b.000003", 5_000))).isZero();
		assertThat(ReplicationRun.lagBytes(Position.of("b.000004", 4), Position.of("b.000003", 5_000))).isZero();
	}

	@Test
	void isUnknownAcrossFilesOrWithoutAHead() {
		assertThat(ReplicationRun.lagBytes(Position.of("b.000002", 1_000), Position.of("b.000003", 5_000))).isNull();
		assertThat(ReplicationRun.lagBytes(Position.of("b.000002", 1_000), null)).isNull();
	}

	@Test
	void theHeadIsNeverBehindWhatWasDeliveredInItsFile() {
		Position sampled = Position.of("b.000003", 5_000);
		assertThat(ReplicationRun.knownHead(sampled, Position.of("b.000003", 7_000, "0-1-20", 1)))
			.hasToString("b.000003:7000");
		assertThat(ReplicationRun.knownHead(sampled, Position.of("b.000003", 4_000))).isSameAs(sampled);
		// Another file: a rotation or another server since the head was read; the sample stands.
		assertThat(ReplicationRun.knownHead(sampled, Position.of("b.000004", 4))).isSameAs(sampled);
		assertThat(ReplicationRun.knownHead(null, Position.of("b.000003", 7_000))).isNull();
		assertThat(ReplicationRun.knownHead(sampled, null)).isSameAs(sampled);
	}

}
