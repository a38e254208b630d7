package io.tributary.source;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartPointTest {

	@Test
	void readsEveryFormAndWritesItBack() {
		assertThat(StartPoint.parse(" now ")).isEqualTo(new StartPoint.Now());
		assertThat(StartPoint.parse("mysql-bin.000042:1234")).isEqualTo(new StartPoint.FileOffset("mysql-bin.000042", 1234));
		assertThat(StartPoint.parse("gtid:3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57"))
			.isEqualTo(new StartPoint.Gtids("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57"));
		assertThat(StartPoint.parse("GTID:0-1-57,1-2-9")).isEqualTo(new StartPoint.Gtids("0-1-57,1-2-9"));
		assertThat(StartPoint.parse("timestamp:2026-12-08T10:30:00+01:00"))
			.isEqualTo(new StartPoint.Time(Instant.parse("2026-12-08T09:30:00Z")));
		for (String text : new String[] { "now", "mysql-bin.000042:1234", "gtid:0-1-57", "timestamp:2026-12-08T09:30:00Z" }) {
			assertThat(StartPoint.parse(text)).hasToString(text);
		}
	}

	@Test
	void refusesWhatIsNoStartPointSayingWhatWouldBe() {
		assertThatThrownBy(() -> StartPoint.parse("yesterday")).hasMessageContaining("'yesterday' is not a start point")
			.hasMessageContaining("timestamp:<instant with zone>");
		assertThatThrownBy(() -> StartPoint.parse("timestamp:2026-12-08T09:30:00"))
			.as("an instant without its zone means another one in every zone")
			.hasMessageContaining("not an instant with its zone");
		assertThatThrownBy(() -> StartPoint.parse("gtid:")).hasMessageContaining("needs a GTID set");
		assertThatThrownBy(() -> StartPoint.parse("mysql-bin.000001:2")).hasMessageContaining("starts at 4");
	}

}
