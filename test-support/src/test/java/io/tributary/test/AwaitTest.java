package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class AwaitTest {

	@Test
	void returnsTheFirstValueTheConditionAccepts() throws Exception {
		AtomicInteger reads = new AtomicInteger();
		int value = Await.value("three reads", Duration.ofSeconds(10), reads::incrementAndGet, (n) -> n >= 3);
		assertThat(value).isEqualTo(3);
		assertThat(reads).hasValue(3);
	}

	@Test
	void failsAfterTheDeadlineNamingWhatAndTheLastValue() {
		long start = System.nanoTime();
		assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> Await.value("a value above 5", Duration.ofMillis(100), () -> 4, (n) -> n > 5))
				.withMessage("Not reached within PT0.1S: a value above 5; last seen: 4");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100))
				.isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void looksAgainOnlyAfterThePollIntervalItIsGiven() throws Exception {
		AtomicInteger reads = new AtomicInteger();
		long start = System.nanoTime();
		Await.until("three looks", Duration.ofSeconds(10), Duration.ofMillis(200), () -> reads.incrementAndGet() >= 3);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
		assertThat(reads).hasValue(3);
	}

	@Test
	void aPollIntervalThatIsNotPositiveIsRefused() {
		assertThatIllegalArgumentException()
				.isThrownBy(() -> Await.until("anything", Duration.ofSeconds(1), Duration.ZERO, () -> true))
				.withMessage("Poll interval must be positive, was PT0S");
	}

	@Test
	void aConditionThatIsNeverMetFailsWithoutAValue() {
		assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> Await.until("never", Duration.ofMillis(50), () -> false))
				.withMessage("Not reached within PT0.05S: never");
	}

	@Test
	void aConditionThatThrowsEndsTheWait() {
		assertThatIllegalStateException().isThrownBy(() -> Await.until("broken", Duration.ofMinutes(1), () -> {
			throw new IllegalStateException("no connection");
		})).withMessage("no connection");
	}
}
