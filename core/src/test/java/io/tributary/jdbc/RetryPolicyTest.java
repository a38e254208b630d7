package io.tributary.jdbc;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {

	@Test
	void pausesDoubleWithinTheUpperHalfOfTheirRangeUpToTheLongest() {
		RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));
		for (int i = 0; i < 200; i++) {
			assertThat(policy.pause(1).toMillis()).isBetween(50L, 100L);
			assertThat(policy.pause(2).toMillis()).isBetween(100L, 200L);
			assertThat(policy.pause(4).toMillis()).isBetween(400L, 800L);
			assertThat(policy.pause(5).toMillis()).isBetween(500L, 1000L);
			assertThat(policy.pause(Integer.MAX_VALUE).toMillis()).isBetween(500L, 1000L);
		}
	}

	@Test
	void pausesAreJittered() {
		RetryPolicy policy = RetryPolicy.contention(10);
		long distinct = IntStream.range(0, 50).mapToLong((i) -> policy.pause(6).toMillis())
			.distinct()
			.count();
		assertThat(distinct).isGreaterThan(1);
	}

	@Test
	void countsAttemptsInAll() {
		RetryPolicy policy = RetryPolicy.contention(3);
		assertThat(policy.allowsRetry(1)).isTrue();
		assertThat(policy.allowsRetry(2)).isTrue();
		assertThat(policy.allowsRetry(3)).isFalse();
		assertThat(RetryPolicy.untilStopped(Duration.ofMillis(1), Duration.ofMillis(2)).allowsRetry(1_000_000))
			.isTrue();
	}

	@Test
	void rerunsContendedWorkUntilItSucceeds() throws SQLException {
		AtomicInteger runs = new AtomicInteger();
		String result = RetryPolicy.contention(5).rerunOnContention("test", () -> {
			if (runs.incrementAndGet() < 3) {
				throw new SQLTransactionRollbackException("deadlock", "40001", 1213);
			}
			return "done";
		});
		assertThat(result).isEqualTo("done");
		assertThat(runs).hasValue(3);
	}

	@Test
	void rerunsWorkWhoseContentionIsWrapped() {
		AtomicInteger runs = new AtomicInteger();
		assertThatThrownBy(() -> RetryPolicy.contention(4).rerunOnContention("test", () -> {
			runs.incrementAndGet();
			throw new IllegalStateException("write failed", new SQLException("lock wait", "HY000", 1205));
		})).isInstanceOf(IllegalStateException.class);
		assertThat(runs).hasValue(4);
	}

	@Test
	void throwsOtherFailuresAtOnce() {
		AtomicInteger runs = new AtomicInteger();
		assertThatThrownBy(() -> RetryPolicy.contention(5).rerunOnContention("test", () -> {
			runs.incrementAndGet();
			throw new SQLException("duplicate", "23000", 1062);
		})).isInstanceOf(SQLException.class).hasMessage("duplicate");
		assertThat(runs).hasValue(1);
	}

	@Test
	void anInterruptedPauseEndsTheLoopWithTheFailureAndKeepsTheFlag() {
		AtomicInteger runs = new AtomicInteger();
		Thread.currentThread().interrupt();
		try {
			assertThatThrownBy(() -> RetryPolicy.contention(5).rerunOnContention("test", () -> {
				runs.incrementAndGet();
				throw new SQLException("deadlock", "40001", 1213);
			})).isInstanceOf(SQLException.class)
				.satisfies((ex) -> assertThat(ex.getSuppressed())
					.hasAtLeastOneElementOfType(InterruptedException.class));
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
			assertThat(runs).hasValue(1);
		}
		finally {
			Thread.interrupted();
		}
	}

}
