package io.tributary.source;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SourceSettingsTest {

	@Test
	void heartbeatsComeEverySecondByDefault() {
		assertThat(settings(null).heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void refusesAnIntervalThatWouldTurnHeartbeatsOff() {
		assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ZERO))
			.withMessageContaining("SourceSettings.heartbeatInterval");
		assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofNanos(500_000)));
		assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofSeconds(-1)));
		assertThat(settings(Duration.ofMillis(1)).heartbeatInterval()).isEqualTo(Duration.ofMillis(1));
	}

	private static SourceSettings settings(Duration heartbeatInterval) {
		return new SourceSettings("localhost", 3306, "tributary", "secret", 1234, null, heartbeatInterval);
	}

}
