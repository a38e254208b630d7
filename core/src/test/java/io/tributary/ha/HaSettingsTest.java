package io.tributary.ha;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HaSettingsTest {

	@Test
	void theLeaderRenewsEveryThirdOfTheLease() {
		assertThat(HaSettings.enabled(Duration.ofSeconds(15), Duration.ofSeconds(2)).renewEvery())
			.isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void aLeaseShorterThanASecondIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HaSettings.enabled(Duration.ofMillis(900), Duration.ofMillis(100)))
			.withMessageContaining("at least 1000 ms");
	}

	@Test
	void aPollIntervalLongerThanTheLeaseIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HaSettings.enabled(Duration.ofSeconds(5), Duration.ofSeconds(6)))
			.withMessageContaining("at most the lease");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HaSettings.enabled(Duration.ofSeconds(5), Duration.ZERO));
	}

}
