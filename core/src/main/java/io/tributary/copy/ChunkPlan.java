package io.tributary.copy;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.jdbc.Sessions;
import io.tributary.schema.Column;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.schema.Values;

/**
 * Where each chunk of a copy ends, in key order. A table keyed by one integer column is stepped
 * through (see {@link KeyStepper}) until its key space turns out sparse; any other table, and the
 * rest of a sparse one, is bounded by probing for the key a chunk's rows further on (see
 * {@link ChunkBounds}). Either way the last chunk is open-ended. Asked for the next chunk by the
 * dispatching thread only; landed chunks feed the stepping back from the copy workers.
 */
final class ChunkPlan {

	// Logs as the copier, whose plan this is, so one logger setting covers the snapshot's messages.
	private static final Logger logger = LoggerFactory.getLogger(Copier.class);

	private final DataSource source;

	private final TableLayout layout;

	private final ChunkBounds bounds;

	private KeyStepper stepper;

	/** Where the stepping plan's first chunk counts its width from: just under the lowest key. */
	private BigInteger steppingStart;

	private ChunkPlan(DataSource source, TableLayout layout) {
		this.source = source;
		this.layout = layout;
		this.bounds = new ChunkBounds(source, layout);
	}

	/**
	 * Plans a copy, reading the highest key (and lowest, for a fresh copy) once when the table is
	 * keyed by one integer column.
	 * @param resumeAfter the key a continued copy starts after, or {@code null} for a fresh copy
	 * @param chunkRows rows of the first chunk
	 * @param maxChunkRows most rows a chunk may hold
	 */
	static ChunkPlan open(DataSource source, TableLayout layout, Object[] resumeAfter, int chunkRows,
			int maxChunkRows) throws SQLException {
		ChunkPlan plan = new ChunkPlan(source, layout);
		if (KeyStepper.appliesTo(layout)) {
			plan.stepper = plan.openStepper(resumeAfter, chunkRows, maxChunkRows);
		}
		return plan;
	}

	/**
	 * Plans the chunk after {@code lower}.
	 * @param lower the key the chunk starts after, or {@code null} for the first chunk
	 * @param chunkRows rows the chunk should hold
	 * @throws SQLException when reading a bound keeps failing
	 */
	PlannedChunk next(Object[] lower, int chunkRows) throws SQLException {
		if (this.stepper != null && this.stepper.sparse()) {
			logger.info("Snapshot of {} finds {} rows per key value after key {}; bounding the remaining "
					+ "chunks by key probes", this.layout.table(), String.format("%.3f", this.stepper.density()),
					new RowKey(lower));
			this.stepper = null;
		}
		if (this.stepper == null) {
			return new PlannedChunk(new KeyRange(lower, this.bounds.next(lower, chunkRows)), false, null, -1);
		}
		BigInteger after = (lower != null) ? KeyStepper.number(lower[0]) : this.steppingStart;
		BigInteger candidate = this.stepper.nextUpper(after, chunkRows);
		if (this.stepper.reachesMax(candidate)) {
			// Rows inserted above the highest key read at the start are copied too: look again,
			// and end with an open-ended chunk only once the plan reaches the current highest key.
			this.stepper.raiseMax(keyRange(this.layout.keys().get(0))[1]);
		}
		Object[] upper = this.stepper.reachesMax(candidate) ? null : new Object[] { this.stepper.key(candidate) };
		return new PlannedChunk(new KeyRange(lower, upper), true, (upper != null) ? this.stepper : null,
				candidate.subtract(after).longValueExact());
	}

	/**
	 * Returns a stepping plan, or {@code null} when the table holds no row to step through.
	 */
	private KeyStepper openStepper(Object[] resumeAfter, int chunkRows, int maxChunkRows) throws SQLException {
		Column key = this.layout.keys().get(0);
		BigInteger[] range = keyRange(key);
		if (range[1] == null || (resumeAfter == null && range[0] == null)) {
			return null;
		}
		// The first chunk is unbounded below; its width counts from just under the lowest key.
		this.steppingStart = (range[0] != null) ? range[0].subtract(BigInteger.ONE) : range[1];
		logger.debug("Snapshot of {} steps through keys up to {}", this.layout.table(), range[1]);
		return new KeyStepper(key.kind() == ValueKind.UNSIGNED_BIGINT, range[1], chunkRows, maxChunkRows);
	}

	/** Reads the lowest and highest key with a plain read; {@code null}s for an empty table. */
	private BigInteger[] keyRange(Column key) throws SQLException {
		String sql = "SELECT MIN(" + key.quotedName() + "), MAX(" + key.quotedName() + ") FROM "
				+ this.layout.table().quoted();
		return RangeCopy.SOURCE_READS.rerunOnContention("Key range read of " + this.layout.table(), () -> {
			try (Connection connection = this.source.getConnection()) {
				Sessions.prepareSource(connection);
				try (PreparedStatement statement = connection.prepareStatement(sql);
						ResultSet rs = statement.executeQuery()) {
					rs.next();
					Object min = Values.fromResultSet(rs, 1, key);
					Object max = Values.fromResultSet(rs, 2, key);
					return new BigInteger[] { (min != null) ? KeyStepper.number(min) : null,
							(max != null) ? KeyStepper.number(max) : null };
				}
			}
		});
	}

	/**
	 * One planned chunk.
	 *
	 * @param range the chunk's keys
	 * @param stepped whether its bound was stepped to through an integer key space rather than found
	 * by probing keys
	 * @param stepper the plan to tell how many rows the chunk held once it lands, or {@code null}
	 * when there is none to tell (a probed or an open-ended chunk)
	 * @param width key values the chunk covers when stepped
	 */
	record PlannedChunk(KeyRange range, boolean stepped, KeyStepper stepper, long width) {

		/** Feeds the rows a landed chunk held back to the stepping plan, which sizes later chunks by it. */
		void landed(int rows) {
			if (this.stepper != null) {
				this.stepper.landed(rows, this.width);
			}
		}

	}

}
