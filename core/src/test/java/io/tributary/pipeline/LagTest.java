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

}
