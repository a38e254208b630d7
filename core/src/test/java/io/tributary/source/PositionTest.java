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
	void carriesGtidsThroughText() {
		Position mysql = Position.of("mysql-bin.000003", 157, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57,\n"
				+ "4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3");
		assertThat(mysql.gtids()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3");
		assertThat(Position.parse(mysql.toString()).gtids()).isEqualTo(mysql.gtids());
		Position mariadb = Position.parse("mysql-bin.000001:4567|0-1-42,1-2-7");
		assertThat(mariadb.offset()).isEqualTo(4567);
		assertThat(mariadb.gtids()).isEqualTo("0-1-42,1-2-7");
		assertThat(mariadb).isEqualTo(Position.of("mysql-bin.000001", 4567));
		assertThat(Position.of("f.000001", 4, "").gtids()).isNull();
	}

	@Test
	void namesTheServerWhoseBinaryLogItPointsInto() {
		Position position = Position.of("mysql-bin.000003", 157, "0-7-42", 7);
		assertThat(position).hasToString("mysql-bin.000003:157#7|0-7-42");
		Position parsed = Position.parse(position.toString());
		assertThat(parsed.serverId()).isEqualTo(7);
		assertThat(parsed.gtids()).isEqualTo("0-7-42");
		assertThat(parsed.offset()).isEqualTo(157);
		assertThat(Position.parse("a:b:12#3").file()).isEqualTo("a:b");
		assertThat(Position.parse("mysql-bin.000003:157").serverId()).as("unknown").isZero();
		assertThat(Position.of("f.000001", 4).onServer(3)).isEqualTo(Position.of("f.000001", 4))
			.hasToString("f.000001:4#3");
		assertThatIllegalArgumentException().isThrownBy(() -> Position.parse("f.000001:4#x"));
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
	void aPositionLaterInTheSameFileIsTheOneMadeFromScratch() {
		Position start = Position.of("b.000010", 4, "0-1-5", 3);
		Position later = start.at(900, "0-1-6");
		assertThat(later).hasToString(Position.of("b.000010", 900, "0-1-6", 3).toString());
		assertThat(later.fileSequence()).isEqualTo(10);
		assertThat(later).isGreaterThan(start).isLessThan(Position.of("b.000011", 4));
		assertThat(start.at(5, " 0-1-6 ").gtids()).isEqualTo("0-1-6");
	}

	@Test
	void rejectsTextThatIsNotAPosition() {
		assertThatIllegalArgumentException().isThrownBy(() -> Position.parse("mysql-bin.000001"))
			.withMessageContaining("file:offset");
		assertThatIllegalArgumentException().isThrownBy(() -> Position.parse("f:x"));
	}

}
