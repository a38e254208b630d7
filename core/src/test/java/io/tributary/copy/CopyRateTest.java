package io.tributary.copy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CopyRateTest {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final CopyRate rate = new CopyRate(Duration.ofSeconds(10), this.now::get);

	@Test
	void nothingCopiedYetHasNoRateAndNoEta() {
		assertThat(this.rate.rowsPerSecond()).isZero();
		assertThat(this.rate.etaSeconds(1000)).isNull();
		advance(3);
		assertThat(this.rate.rowsPerSecond()).isZero();
		assertThat(this.rate.etaSeconds(1000)).isNull();
	}

	@Test
	void aYoungCopyIsMeasuredSinceItsStart() {
		advance(2);
		this.rate.record(2_000);
		advance(2);
		this.rate.record(4_000);
		assertThat(this.rate.rowsPerSecond()).isCloseTo(1_000, within(0.001));
		assertThat(this.rate.etaSeconds(6_000)).isEqualTo(6);
	}

	@Test
	void theRateFollowsTheRecentWindowNotTheWholeCopy() {
		// Fast for a minute, then slow for twenty seconds.
		for (int second = 1; second <= 60; second++) {
			advance(1);
			this.rate.record(second * 10_000L);
		}
		for (int second = 1; second <= 20; second++) {
			advance(1);
			this.rate.record(600_000L + second * 100L);
		}
		assertThat(this.rate.rowsPerSecond()).isCloseTo(100, within(0.001));
		assertThat(this.rate.etaSeconds(1_000)).isEqualTo(10);
	}

	@Test
	void aStalledCopySlowsToZero() {
		advance(1);
		this.rate.record(5_000);
		advance(5);
		assertThat(this.rate.rowsPerSecond()).isCloseTo(5_000 / 6.0, within(0.001));
		advance(10);
		assertThat(this.rate.rowsPerSecond()).isZero();
		assertThat(this.rate.etaSeconds(100)).isNull();
	}

	@Test
	void theEtaRoundsUpAndIsZeroWhenNothingRemains() {
		advance(1);
		this.rate.record(3);
		assertThat(this.rate.etaSeconds(4)).isEqualTo(2);
		assertThat(this.rate.etaSeconds(0)).isZero();
		assertThat(this.rate.etaSeconds(-5)).isZero();
	}

	private void advance(long seconds) {
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
	}

}
