package io.tributary.admin;

import java.time.Instant;
import java.util.List;

import io.tributary.status.PipelineStatus;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

/** Hand-built statuses for the admin pages' tests. */
final class Statuses {

	static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private Statuses() {
	}

	static PipelineStatus pipeline(String name, long eventsRead, long lagMillis, Long lagBytes, TableStatus... tables) {
		PipelineStatus.Source source = new PipelineStatus.Source("db", 3306, 4242, "MYSQL", "8.0.31", "ON", true, null,
				3, eventsRead, null);
		return new PipelineStatus(name, State.RUNNING, source,
				new PipelineStatus.Positions("mysql-bin.000003:1200", "mysql-bin.000003:900", "mysql-bin.000003:1500"),
				lagMillis, lagBytes, List.of(tables), NOW.minusSeconds(3_600), null, true,
				new PipelineStatus.Counters(10, 0, 0, 5, 0));
	}

	static TableStatus streaming(String name, long changesApplied, long bufferedBytes) {
		return table(name, Phase.STREAMING, changesApplied, bufferedBytes, 0, 0, null, TableStatus.Checksum.IDLE);
	}

	static TableStatus table(String name, Phase phase, long changesApplied, long bufferedBytes, long rowsCopied,
			long rowsEstimated, Long etaSeconds, TableStatus.Checksum checksum) {
		double rowsPerSecond = (phase == Phase.SNAPSHOTTING) ? 12_345.6 : 0;
		return new TableStatus(name, "replica." + name.substring(name.indexOf('.') + 1), phase, rowsCopied,
				rowsEstimated, rowsCopied / 1_000, rowsPerSecond, etaSeconds, bufferedBytes / 100, bufferedBytes, 0, 17,
				4, 2, 1_500, 64L * 1024 * 1024, changesApplied, null, bufferedBytes == 0, "mysql-bin.000003:900",
				new TableStatus.Flush(NOW.minusSeconds(2), 1_234, 56, "ok"), null, checksum, null,
				TableStatus.Events.NONE, null, phase != Phase.SNAPSHOTTING);
	}

}
