package io.tributary.source;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PositionTest {

	@Test
	void roundTripsThroughText() {
		Position position = Position.of("mysql-bin.000042", 1234);
		assertThat(Position.parse(position.toString())).isEqualTo(position);
	}

	@Test
	void ordersByFileSequenceThenOffset() {
		assertThat(Position.of("b.000009", 900)).isLessThan(Position.of("b.000010", 4));
		assertThat(Position.of("b.000010", 4)).isLessThan(Position.of("b.000010", 5));
		assertThat(Position.min(Position.of("b.000002", 1), Position.of("b.000001", 9)))
			.isEqualTo(Position.of("b.000001", 9));
		assertThat(Position.min(null, Position.of("b.000001", 9))).isEqualTo(Position.of("b.000001", 9));
	}

	@Test
	void rejectsTextThatIsNotAPosition() {
		assertThatIllegalArgumentException().isThrownBy(() -> Position.parse("mysql-bin.000001"))
			.withMessageContaining("file:offset");
		assertThatIllegalArgumentException().isThrownBy(() -> Position.parse("f:x"));
	}

}
