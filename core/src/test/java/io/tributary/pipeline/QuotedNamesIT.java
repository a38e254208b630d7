package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose schema, table, column and index names hold backticks, dots, quotes, {@code $},
 * brackets, spaces and non-ASCII letters, configured as a user writes them (MySQL's quoting, read
 * by {@link TableId#parse}): they are snapshotted in several chunks, stream inserts, updates, key
 * moves and deletes, checksum equal, and resume from checkpoint rows that name them.
 */
@ExtendWith(DatabaseExtension.class)
class QuotedNamesIT {

	/** The table of the special-characters fixture: s p e c i a l " [ ` ] $ ' */
	private static final String SPECIAL = "special\"[`]$'";

	private static final String SPECIAL_SQL = TableId.quote(SPECIAL);

	private static final String SPECIAL_KEY_SQL = TableId.quote("special\"[`$]'_id");

	private static final String CHINESE = "dbz5743\u4e2d\u6587";

	private TestDatabase db;

	private String oddSource;

	private String oddTarget;

	@Test
	void tablesWithQuotedNamesSnapshotStreamAndResume(TestDatabase db) throws Exception {
		this.db = db;
		Replication replication = Replication.of(db, "quoted");
		this.oddSource = replication.source() + ".odd";
		this.oddTarget = replication.target() + ".odd";
		String src = replication.source();
		String dst = replication.target();
		db.server().execute(null, "DROP DATABASE IF EXISTS " + TableId.quote(this.oddSource),
				"CREATE DATABASE " + TableId.quote(this.oddSource), "DROP DATABASE IF EXISTS " + TableId.quote(this.oddTarget));
		replication.onSource("CREATE TABLE " + SPECIAL_SQL + " (" + SPECIAL_KEY_SQL + " INT AUTO_INCREMENT NOT NULL, "
				+ "`value` INT NOT NULL, `no.te d` VARCHAR(20) NULL, PRIMARY KEY (" + SPECIAL_KEY_SQL + "))",
				"CREATE TABLE `" + CHINESE + "` (id INT PRIMARY KEY, `\u540d` VARCHAR(10))");
		db.server().execute(this.oddSource, "CREATE TABLE `a.b` (`k``1` INT NOT NULL, `k.2` VARCHAR(10) NOT NULL, "
				+ "`v` INT, PRIMARY KEY (`k``1`, `k.2`), UNIQUE KEY `u.``q` (`v`))");
		for (int i = 1; i <= 120; i++) {
			replication.onSource("INSERT INTO " + SPECIAL_SQL + " (`value`, `no.te d`) VALUES (" + i + ", 'n" + i + "')");
		}
		db.server().execute(this.oddSource, "INSERT INTO `a.b` VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3), "
				+ "(3, 'a`b', 4), (3, 'c.d', 5)");
		replication.onSource("INSERT INTO `" + CHINESE + "` VALUES (1, '\u4e00'), (2, '\u4e8c')");

		// The names as a user writes them in cdc.tables[n].source and .target.
		List<String[]> configured = List.of(
				new String[] { "`" + src + "`.`special\"[``]$'`", dst + ".`special\"[``]$'`" },
				new String[] { "`" + this.oddSource + "`.`a.b`", "`" + this.oddTarget + "`.`a.b`" },
				new String[] { src + "." + CHINESE, "`" + dst + "`." + CHINESE });
		List<TableMapping> mappings = configured.stream()
			.map((names) -> new TableMapping(TableId.parse(names[0], null), TableId.parse(names[1], null)))
			.toList();
		assertThat(mappings.get(0).source()).isEqualTo(new TableId(src, SPECIAL));
		assertThat(mappings.get(1).target()).isEqualTo(new TableId(this.oddTarget, "a.b"));
		Replication quoted = replication.withSettings((s) -> s.withTables(mappings).withChunkRows(25)
			.withFlushInterval(Duration.ofMillis(200)));

		try (RunningPipeline pipeline = quoted.start()) {
			awaitEveryTableStreaming(pipeline);
			assertThat(pipeline.status().tables()).extracting(TableStatus::rowsCopied).containsExactly(120L, 5L, 2L);
			replication.onSource("INSERT INTO " + SPECIAL_SQL + " (`value`) VALUES (1000)",
					"UPDATE " + SPECIAL_SQL + " SET `value` = -`value`, `no.te d` = 'it''s' WHERE " + SPECIAL_KEY_SQL
							+ " <= 10",
					"UPDATE " + SPECIAL_SQL + " SET " + SPECIAL_KEY_SQL + " = 500 WHERE " + SPECIAL_KEY_SQL + " = 11",
					"DELETE FROM " + SPECIAL_SQL + " WHERE " + SPECIAL_KEY_SQL + " BETWEEN 20 AND 29",
					"UPDATE `" + CHINESE + "` SET `\u540d` = '\u4e09' WHERE id = 2");
			db.server().execute(this.oddSource, "INSERT INTO `a.b` VALUES (4, 'q`q', 6)",
					"UPDATE `a.b` SET `k.2` = 'moved' WHERE `k``1` = 1 AND `k.2` = 'x'",
					"DELETE FROM `a.b` WHERE `k.2` = 'c.d'");
			pipeline.awaitCaughtUp();
			assertEveryTableEqual(replication, configured);
			TableStatus.Checksum checksum = pipeline.pipeline().checksum(mappings.get(0).source())
				.get(1, TimeUnit.MINUTES);
			assertThat(checksum.state()).isEqualTo(TableStatus.Checksum.State.DONE);
			assertThat(checksum.rowsChecked()).isEqualTo(111);
			assertThat(checksum.chunksDiffering()).isZero();
		}

		assertThat(replication.queryStrings("SELECT source_table FROM " + dst + ".tributary_checkpoint")
			.stream()
			.map((name) -> TableId.parse(name, null))
			.collect(Collectors.toSet()))
			.as("checkpoint rows, read back as names")
			.isEqualTo(mappings.stream().map(TableMapping::source).collect(Collectors.toSet()));
		assertThat(Set.copyOf(replication.queryStrings("SELECT target_table FROM " + dst + ".tributary_checkpoint")))
			.contains("`" + this.oddTarget + "`.`a.b`", dst + ".`special\"[``]$'`");

		replication.onSource("DELETE FROM " + SPECIAL_SQL + " WHERE " + SPECIAL_KEY_SQL + " > 100",
				"INSERT INTO `" + CHINESE + "` VALUES (3, '\u56db')");
		db.server().execute(this.oddSource, "UPDATE `a.b` SET `v` = `v` * 10");
		try (RunningPipeline resumed = quoted.start()) {
			awaitEveryTableStreaming(resumed);
			assertThat(resumed.status().tables()).as("rows copied after resuming from the checkpoints")
				.extracting(TableStatus::rowsCopied)
				.containsOnly(0L);
			resumed.awaitCaughtUp();
			assertEveryTableEqual(replication, configured);
		}
	}

	@AfterEach
	void dropDottedSchemas() {
		if (this.oddSource != null) {
			this.db.server().execute(null, "DROP DATABASE IF EXISTS " + TableId.quote(this.oddSource),
					"DROP DATABASE IF EXISTS " + TableId.quote(this.oddTarget));
		}
	}

	private static void awaitEveryTableStreaming(RunningPipeline pipeline) throws Exception {
		pipeline.awaitStatus("every table streaming",
				(status) -> status.tables().stream().allMatch((table) -> table.phase() == Phase.STREAMING),
				Replication.WAIT);
	}

	private static void assertEveryTableEqual(Replication replication, List<String[]> configured) {
		for (String[] names : configured) {
			TableComparison.assertEqual(replication.sourcePool(), names[0], replication.pool(), names[1]);
		}
	}

}
