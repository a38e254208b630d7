package io.tributary.checksum;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.pipeline.Replication;
import io.tributary.pipeline.RunningPipeline;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Checksum.State;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checksum finds what differs between source and target, chunk by chunk, and repairs it. The
 * table mixes NULLs, empty strings, decimals, DATETIME(6), TIMESTAMP(6), blobs, a FLOAT, BIT and
 * JSON; the target is then damaged directly in 11 of its 21 chunks, each in a way a checksum that
 * ignored NULLs, a column, a row or a fractional second would miss.
 */
@ExtendWith(DatabaseExtension.class)
class ChecksumIT {

	private static final int ROWS = 1000;

	/** Rows per compared chunk: 1000 rows with even ids 2..2000 make 20 chunks and an open-ended one. */
	private static final int CHUNK_ROWS = 50;

	private static final int CHUNKS = 21;

	/** One damage per even-numbered chunk, the last in the open-ended chunk past the source's keys. */
	private static final String[] DAMAGE = { "UPDATE mix SET amount = 1.001 WHERE id = 12",
			"DELETE FROM mix WHERE id = 300", "INSERT INTO mix (id, name) VALUES (401, 'extra')",
			"UPDATE mix SET name = NULL WHERE id = 602", "UPDATE mix SET name = '' WHERE id = 808",
			"UPDATE mix SET at = at + INTERVAL 1 MICROSECOND WHERE id = 1002",
			"UPDATE mix SET body = NULL WHERE id = 1202", "UPDATE mix SET ratio = ratio + 1 WHERE id = 1402",
			"UPDATE mix SET flags = b'1' WHERE id = 1602", "UPDATE mix SET doc = '{\"i\": 0}' WHERE id = 1802",
			"INSERT INTO mix (id, name) VALUES (5001, 'beyond')" };

	@Test
	void findsAndRepairsDamagedChunks(TestDatabase db) throws Exception {
		Replication replication = mixTable(db, "fix", true);
		try (RunningPipeline pipeline = replication.start()) {
			TableStatus.Checksum afterCopy = awaitChecksumDone(pipeline);
			assertThat(afterCopy.chunksChecked()).isEqualTo(CHUNKS);
			assertThat(afterCopy.rowsChecked()).isEqualTo(ROWS);
			assertThat(afterCopy.chunksDiffering()).as("right after the snapshot").isZero();
			assertThat(afterCopy.chunksRepaired()).isZero();

			replication.onTarget(DAMAGE);
			assertThat(replication.compare("mix").differenceCount()).isEqualTo(DAMAGE.length);
			TableStatus.Checksum repaired = pipeline.checksum("mix", Duration.ofMinutes(2));
			assertThat(repaired.state()).isEqualTo(State.DONE);
			assertThat(repaired.chunksChecked()).isEqualTo(CHUNKS);
			assertThat(repaired.chunksDiffering()).isEqualTo(DAMAGE.length);
			assertThat(repaired.chunksRecheckedStillDiffering()).isEqualTo(DAMAGE.length);
			assertThat(repaired.chunksRepaired()).isEqualTo(DAMAGE.length);
			assertThat(repaired.lastError()).isNull();
			assertThat(pipeline.table().checksum()).isEqualTo(repaired);
			replication.assertEqual("mix");

			TableStatus.Checksum again = pipeline.checksum("mix", Duration.ofMinutes(2));
			assertThat(again.chunksDiffering()).isZero();
			assertThat(again.chunksRepaired()).isZero();
		}
	}

	@Test
	void reportsWithoutRepairingWhenFixingIsOff(TestDatabase db) throws Exception {
		Replication replication = mixTable(db, "report", false);
		try (RunningPipeline pipeline = replication.start()) {
			assertThat(awaitChecksumDone(pipeline).chunksDiffering()).isZero();
			replication.onTarget(DAMAGE);
			TableStatus.Checksum reported = pipeline.checksum("mix", Duration.ofMinutes(2));
			assertThat(reported.state()).isEqualTo(State.DONE);
			assertThat(reported.chunksDiffering()).isEqualTo(DAMAGE.length);
			assertThat(reported.chunksRecheckedStillDiffering()).isEqualTo(DAMAGE.length);
			assertThat(reported.chunksRepaired()).isZero();
			assertThat(replication.compare("mix").differenceCount()).isEqualTo(DAMAGE.length);
		}
	}

	/**
	 * A request made while a pass is comparing gets a pass of its own that starts after it, since
	 * the running pass read its chunks before the request; requests made while that second pass
	 * waits its turn share it. The running pass is held in its repair by a row lock on the target.
	 */
	@Test
	void aRequestWhileAPassRunsQueuesAnotherAndRequestsWhileItWaitsShareIt(TestDatabase db) throws Exception {
		Replication replication = mixTable(db, "queue", true);
		TableId table = replication.mapping("mix").source();
		String target = replication.mapping("mix").target().quoted();
		try (RunningPipeline pipeline = replication.start()) {
			awaitChecksumDone(pipeline);
			replication.onTarget(DAMAGE[0]);
			CompletableFuture<TableStatus.Checksum> running;
			CompletableFuture<TableStatus.Checksum> next;
			try (Connection locker = db.dataSource(null).getConnection(); Statement statement = locker.createStatement()) {
				locker.setAutoCommit(false);
				statement.executeQuery("SELECT * FROM " + target + " WHERE id = 12 FOR UPDATE").close();
				running = pipeline.pipeline().checksum(table);
				pipeline.awaitTable((t) -> t.checksum().chunksRecheckedStillDiffering() == 1);
				next = pipeline.pipeline().checksum(table);
				assertThat(next).as("the request made while a pass compares").isNotSameAs(running);
				assertThat(pipeline.pipeline().checksum(table)).as("a request while the next pass waits").isSameAs(next);
				assertThat(running).isNotDone();
				assertThat(pipeline.table().checksum().state()).as("the status shows the running pass")
					.isEqualTo(State.RUNNING);
				assertThat(pipeline.table().checksum().chunksDiffering()).isEqualTo(1);
				locker.rollback();
			}
			TableStatus.Checksum first = running.get(2, TimeUnit.MINUTES);
			assertThat(first.chunksRepaired()).isEqualTo(1);
			TableStatus.Checksum second = next.get(2, TimeUnit.MINUTES);
			assertThat(second.state()).isEqualTo(State.DONE);
			assertThat(second.chunksDiffering()).as("the pass after the repair").isZero();
			assertThat(pipeline.table().checksum()).isEqualTo(second);
			replication.assertEqual("mix");
		}
	}

	/** Replicates {@code mix}, {@value #ROWS} varied rows checksummed in chunks of {@value #CHUNK_ROWS}. */
	private static Replication mixTable(TestDatabase db, String schemas, boolean fix) {
		Replication replication = Replication.of(db, schemas).replicating("mix").withSettings((s) -> s
			.withChecksum(ChecksumSettings.DEFAULTS.withChunkRows(CHUNK_ROWS).withFixDifferences(fix)));
		StringBuilder insert = new StringBuilder(
				"INSERT INTO mix (id, name, amount, at, ts, body, ratio, flags, doc) VALUES ");
		for (int i = 1; i <= ROWS; i++) {
			String name = switch (i % 4) {
				case 0 -> "NULL";
				case 1 -> "''";
				case 2 -> "'n" + i + " \u00e9\u00e8 \uD83D\uDE9A'";
				default -> "'n" + i + "|N|0:'";
			};
			String amount = (i % 5 == 0) ? "NULL" : String.valueOf(i * 1.125);
			String at = String.format("'2024-01-%02d 10:%02d:%02d.%06d'", 1 + i % 28, i % 60, (i * 7) % 60, i * 997);
			String ts = (i % 6 == 0) ? "NULL"
					: String.format("'2023-06-%02d 23:%02d:%02d.%06d'", 1 + i % 28, i % 60, (i * 3) % 60, i * 31);
			String body = switch (i % 3) {
				case 0 -> "NULL";
				case 1 -> "X''";
				default -> "X'00ff" + String.format("%04x", i) + "'";
			};
			String ratio = (i % 7 == 0) ? "NULL" : String.valueOf(i / 3.0);
			String flags = (i % 2 == 0) ? "b'10101'" : "NULL";
			String doc = (i % 10 == 0) ? "NULL" : "'{\"i\": " + i + ", \"tags\": [\"a\", null]}'";
			insert.append((i > 1) ? ", " : "")
				.append(String.join(", ", "(" + (2 * i), name, amount, at, ts, body, ratio, flags, doc + ")"));
		}
		replication.onSource("CREATE TABLE mix (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NULL, "
				+ "amount DECIMAL(12,3) NULL, at DATETIME(6) NULL, ts TIMESTAMP(6) NULL DEFAULT NULL, body BLOB NULL, "
				+ "ratio FLOAT NULL, flags BIT(5) NULL, doc JSON NULL) DEFAULT CHARSET = utf8mb4", insert.toString());
		return replication;
	}

	/** Waits for the pass that follows the snapshot to end, and returns its counters. */
	private static TableStatus.Checksum awaitChecksumDone(RunningPipeline pipeline) throws Exception {
		return pipeline.awaitTable((table) -> {
			assertThat(table.checksum().state()).as("checksum of %s", table).isNotEqualTo(State.FAILED);
			assertThat(table.phase()).isNotEqualTo(Phase.FAILED);
			return table.phase() != Phase.SNAPSHOTTING && table.checksum().state() == State.DONE;
		}, Duration.ofMinutes(3)).checksum();
	}

}
