package io.tributary.pipeline;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.tributary.apply.ApplyException;

import static org.assertj.core.api.Assertions.assertThat;

class FailureStreakTest {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private final FailureStreak streak = new FailureStreak();

	@Test
	void theSameErrorAgainAndAgainOverTheSpanIsPermanent() {
		for (int i = 0; i < FailureStreak.ATTEMPTS - 1; i++) {
			assertThat(this.streak.failed(refused("Upserting " + i + " rows"), i * 3 * SECOND)).isFalse();
		}
		assertThat(this.streak.failed(refused("Upserting 9 rows"), FailureStreak.SPAN.toNanos())).isTrue();
	}

	@Test
	void manyFailuresWithinMomentsAreNotYetPermanent() {
		for (int i = 0; i < FailureStreak.ATTEMPTS * 4; i++) {
			assertThat(this.streak.failed(refused("Upserting"), i)).isFalse();
		}
		assertThat(this.streak.count()).isEqualTo(FailureStreak.ATTEMPTS * 4);
	}

	@Test
	void aSuccessOrAnotherErrorStartsAgain() {
		for (int i = 0; i < FailureStreak.ATTEMPTS - 1; i++) {
			this.streak.failed(refused("x"), i * 5 * SECOND);
		}
		this.streak.succeeded();
		assertThat(this.streak.failed(refused("x"), 100 * SECOND)).isFalse();
		assertThat(this.streak.count()).isOne();
		this.streak.failed(new ApplyException("y", new SQLException("other", "HY000", 1366)), 101 * SECOND);
		assertThat(this.streak.count()).isOne();
	}

	@Test
	void errorsThatPassNeverCount() {
		for (int i = 0; i < FailureStreak.ATTEMPTS * 2; i++) {
			long now = i * 10 * SECOND;
			assertThat(this.streak.failed(wrapped(new SQLTransientConnectionException("pool timeout")), now)).isFalse();
			assertThat(this.streak.failed(wrapped(new SQLException("link failure", "08S01", 0)), now)).isFalse();
			assertThat(this.streak.failed(wrapped(new SQLException("read only", "HY000", 1290)), now)).isFalse();
			assertThat(this.streak.failed(wrapped(new SQLException("deadlock", "40001", 1213)), now)).isFalse();
		}
		assertThat(this.streak.count()).isZero();
	}

	private static ApplyException refused(String what) {
		return wrapped(new SQLException("no rows here", "45000", 1644), what);
	}

	private static ApplyException wrapped(SQLException cause) {
		return wrapped(cause, "Upserting 1 rows");
	}

	private static ApplyException wrapped(SQLException cause, String what) {
		return new ApplyException(what + " failed: " + cause.getMessage(), cause);
	}

}
