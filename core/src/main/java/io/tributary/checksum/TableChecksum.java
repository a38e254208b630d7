package io.tributary.checksum;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.copy.ChunkBounds;
import io.tributary.copy.KeyRange;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableStatus;

/**
 * One checksum pass over a table: compares each chunk's aggregate on source and target, re-checks
 * a differing chunk once the stream has applied everything up to its read, and, when asked to,
 * repairs a chunk that still differs and verifies it.
 *
 * <p>The re-check compares rows, not aggregates, and then follows only the keys that still differ
 * for a few rounds, each after the stream has passed the head read after that round's source read.
 * A key that differed because a change to it was on its way is equal in the next round unless it
 * was changed yet again in between; a real difference stays.
 */
public final class TableChecksum {

	private static final Logger logger = LoggerFactory.getLogger(TableChecksum.class);

	/** Re-check rounds before a chunk counts as still differing. */
	static final int RECHECK_ROUNDS = 3;

	/** Most keys one re-check round reads by key; more are read by the chunk's range. */
	private static final int MAX_KEYS_BY_KEY = 500;

	/** Waits until the table has applied every change up to a source position. */
	@FunctionalInterface
	public interface Confirmation {

		/**
		 * Returns once the table's confirmed position is at or past {@code head}.
		 * @throws InterruptedException when interrupted
		 * @throws IllegalStateException when the table or the pipeline stops meanwhile
		 */
		void await(Position head) throws InterruptedException;

	}

	/** Recopies a key range from the source into the target. */
	@FunctionalInterface
	public interface Repair {

		void recopy(KeyRange range) throws SQLException;

	}

	private final DataSource source;

	private final TableLayout layout;

	private final ChecksumSide sourceSide;

	private final ChecksumSide targetSide;

	private final ChecksumSettings settings;

	private final Confirmation confirmation;

	private final Repair repair;

	private final ChecksumProgress progress;

	private final SettingNames names;

	/**
	 * Creates a pass.
	 * @param source the source pool
	 * @param target the target pool
	 * @param layout the source table's layout
	 * @param targetTable the target table
	 * @param targetTypes the target's {@code COLUMN_TYPE} of each leading column of the layout it has,
	 * in order; only those columns are compared
	 * @param settings chunk size and whether to repair
	 * @param confirmation waits for the table to apply changes up to a position
	 * @param repair recopies a range
	 * @param progress receives the counters
	 * @param names how messages name the settings they point to
	 */
	public TableChecksum(DataSource source, DataSource target, TableLayout layout, TableId targetTable,
			List<String> targetTypes, ChecksumSettings settings, Confirmation confirmation, Repair repair,
			ChecksumProgress progress, SettingNames names) {
		this(source, target, layout, targetTable, null, targetTypes, settings, confirmation, repair, progress, names);
	}

	/**
	 * Creates a pass over the part of the target a filter chooses (the slice of a target that
	 * several tables are merged into); the other parameters as the other constructor takes them.
	 * @param targetFilter an SQL predicate choosing the target's rows of this table, or {@code null}
	 */
	public TableChecksum(DataSource source, DataSource target, TableLayout layout, TableId targetTable,
			String targetFilter, List<String> targetTypes, ChecksumSettings settings, Confirmation confirmation,
			Repair repair, ChecksumProgress progress, SettingNames names) {
		this.source = source;
		this.layout = layout;
		List<Column> compared = layout.columns().subList(0, targetTypes.size());
		this.sourceSide = new ChecksumSide(source, layout.table(), layout.keys(), compared, targetTypes, true, null);
		this.targetSide = new ChecksumSide(target, targetTable, layout.keys(), compared, targetTypes, false,
				targetFilter);
		this.settings = settings;
		this.confirmation = confirmation;
		this.repair = repair;
		this.progress = progress;
		this.names = names;
	}

	/**
	 * Compares the whole table, chunk by chunk.
	 * @param stopRequested polled between chunks; when true the pass ends early and fails
	 * @throws SQLException when a read or a repair fails
	 * @throws InterruptedException when interrupted
	 */
	public void run(BooleanSupplier stopRequested) throws SQLException, InterruptedException {
		logger.info("Checksum of {} started ({} rows per chunk)", this.layout.table(), this.settings.chunkRows());
		// Start from a target that has caught up with now, so a first comparison differs only
		// because of changes made during the pass.
		this.confirmation.await(SourceQueries.headFileOffset(this.source));
		ChunkBounds bounds = new ChunkBounds(this.source, this.layout);
		Object[] lower = null;
		while (true) {
			if (stopRequested.getAsBoolean()) {
				throw new IllegalStateException("The checksum of " + this.layout.table() + " stopped before it ended");
			}
			Object[] upper = bounds.next(lower, this.settings.chunkRows());
			check(new KeyRange(lower, upper));
			if (upper == null) {
				break;
			}
			lower = upper;
		}
		this.progress.done();
		TableStatus.Checksum result = this.progress.snapshot();
		logger.info("Checksum of {} done: {} chunks, {} differing, {} still differing after the re-check, {} repaired",
				this.layout.table(), result.chunksChecked(), result.chunksDiffering(),
				result.chunksRecheckedStillDiffering(), result.chunksRepaired());
	}

	private void check(KeyRange range) throws SQLException, InterruptedException {
		ChunkSums sourceSums = this.sourceSide.sums(range);
		ChunkSums targetSums = this.targetSide.sums(range);
		this.progress.chunkChecked(sourceSums.rows());
		if (sourceSums.equals(targetSums)) {
			return;
		}
		// Read after the source read: every change that read saw is at or before it in the binlog.
		Position head = SourceQueries.headFileOffset(this.source);
		this.progress.differing();
		logger.debug("Chunk {} of {} differs ({} vs {}); re-checking after {}", range, this.layout.table(), sourceSums,
				targetSums, head);
		Set<RowKey> differing = recheck(range, head);
		if (differing.isEmpty()) {
			return;
		}
		this.progress.stillDiffering();
		if (!this.settings.fixDifferences()) {
			logger.warn("Chunk {} of {} differs from target {} ({} row(s), such as {}); not repaired ({} is false)",
					range, this.layout.table(), this.targetSide, differing.size(), differing.iterator().next(),
					this.names.of(Setting.CHECKSUM_FIX_DIFFERENCES));
			return;
		}
		logger.warn("Chunk {} of {} differs from target {} ({} row(s), such as {}); recopying it", range,
				this.layout.table(), this.targetSide, differing.size(), differing.iterator().next());
		this.repair.recopy(range);
		Set<RowKey> after = recheck(range, SourceQueries.headFileOffset(this.source));
		if (after.isEmpty()) {
			this.progress.repaired();
		}
		else {
			String message = "Chunk " + range + " of " + this.layout.table() + " still differs after it was recopied ("
					+ after.size() + " row(s), such as " + after.iterator().next() + ")";
			this.progress.problem(message);
			logger.warn(message);
		}
	}

	/**
	 * Returns the keys of a range that differ once the stream has passed {@code head}, following
	 * the differing keys for up to {@link #RECHECK_ROUNDS} rounds.
	 */
	private Set<RowKey> recheck(KeyRange range, Position head) throws SQLException, InterruptedException {
		this.confirmation.await(head);
		Map<RowKey, Long> sourceRows = this.sourceSide.hashes(range);
		Position next = SourceQueries.headFileOffset(this.source);
		Set<RowKey> differing = differences(sourceRows, this.targetSide.hashes(range));
		for (int round = 2; round <= RECHECK_ROUNDS && !differing.isEmpty(); round++) {
			this.confirmation.await(next);
			List<RowKey> keys = new ArrayList<>(differing);
			if (keys.size() > MAX_KEYS_BY_KEY) {
				sourceRows = this.sourceSide.hashes(range);
				next = SourceQueries.headFileOffset(this.source);
				differing = differences(sourceRows, this.targetSide.hashes(range));
			}
			else {
				sourceRows = this.sourceSide.hashes(keys);
				next = SourceQueries.headFileOffset(this.source);
				differing = differences(sourceRows, this.targetSide.hashes(keys));
			}
		}
		return differing;
	}

	private static Set<RowKey> differences(Map<RowKey, Long> source, Map<RowKey, Long> target) {
		Set<RowKey> differing = new HashSet<>();
		source.forEach((key, hash) -> {
			if (!hash.equals(target.get(key))) {
				differing.add(key);
			}
		});
		target.keySet().stream().filter((key) -> !source.containsKey(key)).forEach(differing::add);
		return differing;
	}

}
