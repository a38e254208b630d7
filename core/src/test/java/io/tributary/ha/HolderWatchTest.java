package io.tributary.ha;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When a standby may end the session that holds the leader lock. */
class HolderWatchTest {

	private static final Duration LEASE = Duration.ofSeconds(15);

	private static final long SECOND = 1_000_000_000L;

	private final HolderWatch watch = new HolderWatch();

	@Test
	void aLiveLeaseIsNeverEnded() {
		assertThat(this.watch.sessionToEnd(lease(7, false, 7L), 0, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, false, 7L), 100 * SECOND, LEASE)).isNull();
	}

	@Test
	void aFreeLockIsNotEnded() {
		assertThat(this.watch.sessionToEnd(lease(7, true, null), 0, LEASE)).isNull();
	}

	@Test
	void theRecordedHolderOfALapsedLeaseIsEndedAtOnce() {
		assertThat(this.watch.sessionToEnd(lease(7, true, 7L), 0, LEASE)).isEqualTo(7L);
	}

	@Test
	void anUnrecordedHolderGetsAWholeLeaseToRecordItsTakeover() {
		// Session 9 took the lock after 7's lease lapsed, and has not raised the epoch yet.
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 0, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 14 * SECOND, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 15 * SECOND, LEASE)).isEqualTo(9L);
	}

	@Test
	void anotherUnrecordedHolderStartsItsOwnWait() {
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 0, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 10L), 14 * SECOND, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 10L), 28 * SECOND, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 10L), 29 * SECOND, LEASE)).isEqualTo(10L);
	}

	@Test
	void aRenewedLeaseResetsTheWait() {
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 0, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(9, false, 9L), 5 * SECOND, LEASE)).isNull();
		assertThat(this.watch.sessionToEnd(lease(7, true, 9L), 16 * SECOND, LEASE)).isNull();
	}

	private static LeaderTable.Lease lease(long lockSession, boolean lapsed, Long lockHolder) {
		return new LeaderTable.Lease(3, "host/1/abc", lockSession, List.of(), 1_700_000_000L, lapsed,
				"2030-01-01 00:00:00", lockHolder);
	}

}
