package io.tributary.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.ha.FencedTransaction;
import io.tributary.ha.TargetFence;
import io.tributary.jdbc.RetryPolicy;
import io.tributary.jdbc.Sessions;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Applies changes to a MySQL/MariaDB target table with multi-row {@code REPLACE INTO} for row
 * images and {@code DELETE ... WHERE key IN (...)} for deletes.
 *
 * <p>REPLACE deletes every row that conflicts with the new one on the primary key or any unique
 * key before inserting it, so the rows of one statement can be in any order: a transaction that
 * moved a unique value from one row to another converges whichever row is written first.
 *
 * <p>Statements are cut at {@code batchRows} rows or about {@code batchBytes} of values,
 * whichever comes first, and each commits on its own ({@link BatchLimits}, which also says which
 * statements are prepared on the server; {@link BatchStatements} writes their text). With an
 * active {@link TargetFence} (several instances, one leading) each write is an explicit
 * transaction that proves leadership just before it commits, and rolls back when it cannot.
 *
 * <p>A snapshot chunk ({@link #upsertChunk}), and a batch of row images of at least
 * {@value #LOAD_ROWS} rows (or the full size, when that is smaller), is loaded with one streamed
 * {@code LOAD DATA LOCAL INFILE ... REPLACE} in a transaction ({@link StreamedLoads}) when the
 * connection was opened to allow it ({@link TargetDriverProperties#streamedLoads()}): the server
 * parses the rows in bulk instead of value by value. Smaller batches, as while streaming, stay
 * statements, which take one round trip where a load in a transaction takes four. Rows a load
 * leaves behind (refused, rolled back for a warning, failed) are written with statements.
 */
public final class JdbcReplaceApplier implements Applier {

	/** Fewest rows of a batch that is loaded; see the class comment. */
	static final int LOAD_ROWS = 256;

	/** Runs of a transaction of several statements that keeps meeting lock contention. */
	private static final RetryPolicy TRANSACTIONS = RetryPolicy.contention(5);

	private static final Logger logger = LoggerFactory.getLogger(JdbcReplaceApplier.class);

	private final DataSource target;

	private final TableId targetTable;

	private final TableLayout layout;

	/** How many leading source columns the target has; later ones are not written. */
	private final int width;

	private final TargetFence fence;

	/** The part of the target this table owns, or {@code null} for all of it. */
	private final TargetSlice slice;

	private final BatchLimits limits;

	private final BatchStatements statements;

	private final StreamedLoads loads;

	private final TargetKeyReader keyReader;

	/** Fewest rows of a batch that is loaded rather than written as a statement. */
	private final int loadRows;

	/**
	 * Creates an applier writing every column of the layout.
	 */
	public JdbcReplaceApplier(DataSource target, TableId targetTable, TableLayout layout, int batchRows,
			long batchBytes) {
		this(target, targetTable, layout, layout.columns().size(), batchRows, batchBytes);
	}

	/**
	 * Creates an applier writing the first {@code width} columns of the layout: a target that
	 * lacks columns added to the source at its end receives the others. Images shorter than
	 * {@code width} (read before such columns were added) get the column DEFAULT for the rest.
	 */
	public JdbcReplaceApplier(DataSource target, TableId targetTable, TableLayout layout, int width, int batchRows,
			long batchBytes) {
		this(target, targetTable, layout, width, batchRows, batchBytes, TargetFence.NONE);
	}

	/**
	 * Creates an applier writing the first {@code width} columns of the layout, each of whose
	 * transactions proves leadership through {@code fence} before it commits.
	 */
	public JdbcReplaceApplier(DataSource target, TableId targetTable, TableLayout layout, int width, int batchRows,
			long batchBytes, TargetFence fence) {
		this(target, targetTable, layout, width, batchRows, batchBytes, fence, null);
	}

	/**
	 * Creates an applier writing the first {@code width} columns of the layout into one slice of
	 * the target, each of whose transactions proves leadership through {@code fence} before it
	 * commits.
	 * @param slice the part of the target the source table owns (merged shards), or {@code null}
	 * for the whole target
	 */
	public JdbcReplaceApplier(DataSource target, TableId targetTable, TableLayout layout, int width, int batchRows,
			long batchBytes, TargetFence fence, TargetSlice slice) {
		this.target = target;
		this.slice = slice;
		this.fence = fence;
		this.targetTable = targetTable;
		this.layout = layout;
		this.width = width;
		// Generated columns are left out: the target refuses any value for them but their own.
		int[] written = layout.writtenColumns(width);
		this.limits = new BatchLimits(batchRows, batchBytes, written.length, layout.keyColumns().length);
		this.statements = new BatchStatements(targetTable, layout, width, written, this.limits, slice);
		this.loads = new StreamedLoads(target, targetTable, fence,
				new LocalInfileLoad(targetTable, layout, width, written, slice));
		this.keyReader = new TargetKeyReader(target, targetTable, layout, slice);
		this.loadRows = Math.min(this.limits.maxUpsertRows(), LOAD_ROWS);
	}

	/**
	 * Empties the target table, or this table's slice of it: with TRUNCATE, or, when fenced or
	 * sliced, with DELETEs of at most {@value TargetTruncation#FENCED_DELETE_ROWS} rows, since
	 * TRUNCATE commits on its own and could not be refused to an instance that no longer leads, and
	 * would empty the other slices too.
	 */
	public void truncate() {
		TargetTruncation.truncate(this.target, this.targetTable, this.fence, this.slice);
	}

	/** Returns the part of the target this table owns, or {@code null} for all of it. */
	public TargetSlice slice() {
		return this.slice;
	}

	public TableId targetTable() {
		return this.targetTable;
	}

	@Override
	public void upsert(List<Object[]> rows) {
		if (!rows.isEmpty()) {
			write("Upserting", rows,
					this.limits.fitsOneStatement(rows) ? this::replaceBatch : this::replaceInOneTransaction);
		}
	}

	/**
	 * Writes a snapshot chunk: loaded from memory where the connection and the server allow it,
	 * otherwise with statements, as {@link #upsert} writes rows.
	 */
	@Override
	public void upsertChunk(List<Object[]> rows) {
		if (!rows.isEmpty()) {
			write("Upserting", rows, (chunk) -> {
				if (!this.loads.loaded(chunk)) {
					replaceWithStatements(chunk);
				}
			});
		}
	}

	@Override
	public void delete(List<Object[]> keys) {
		int perStatement = this.limits.maxDeleteKeys();
		for (int from = 0; from < keys.size(); from += perStatement) {
			write("Deleting", keys.subList(from, Math.min(keys.size(), from + perStatement)), this::deleteBatch);
		}
	}

	/**
	 * Reads the keys the target holds in a key range.
	 * @param lowerExclusive lower bound, or {@code null} for none
	 * @param upperInclusive upper bound, or {@code null} for none
	 * @return the keys, in key order
	 * @throws SQLException on a database error
	 */
	public List<Object[]> keysIn(Object[] lowerExclusive, Object[] upperInclusive) throws SQLException {
		return this.keyReader.keysIn(lowerExclusive, upperInclusive);
	}

	private void write(String verb, List<Object[]> batch, BatchWrite write) {
		try {
			write.write(batch);
		}
		catch (SQLException ex) {
			throw new ApplyException(verb + " " + batch.size() + " rows in " + this.targetTable + " failed: "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * Writes row images as exactly one REPLACE, whatever their number: an autocommit statement, or
	 * a fenced transaction of that one statement; or, for at least {@value #LOAD_ROWS} rows (see
	 * the class comment), as one load in a transaction. The caller keeps them within
	 * {@link BatchLimits#maxUpsertRows()}.
	 * @throws SQLException as the server reported it, so the caller can tell contention apart;
	 * {@link io.tributary.ha.FencedOutException} when the fence refused the write
	 */
	void replaceBatch(List<Object[]> rows) throws SQLException {
		if (rows.size() >= this.loadRows && this.loads.loaded(rows)) {
			if (logger.isDebugEnabled()) {
				logger.debug("Loaded {} rows into {}", rows.size(), this.targetTable);
			}
			return;
		}
		replaceStatement(rows);
	}

	/**
	 * Deletes keys with exactly one DELETE, whatever their number, as {@link #replaceBatch} writes
	 * row images; the caller keeps them within {@link BatchLimits#maxDeleteKeys()}.
	 * @throws SQLException as {@link #replaceBatch} throws it
	 */
	void deleteBatch(List<Object[]> keys) throws SQLException {
		runAlone((c) -> this.statements.delete(c, keys));
		if (logger.isDebugEnabled()) {
			logger.debug("Deleted {} rows in {}", keys.size(), this.targetTable);
		}
	}

	private void replaceWithStatements(List<Object[]> rows) throws SQLException {
		if (this.limits.fitsOneStatement(rows)) {
			replaceStatement(rows);
		}
		else {
			replaceInOneTransaction(rows);
		}
	}

	private void replaceStatement(List<Object[]> rows) throws SQLException {
		runAlone((c) -> this.statements.replace(c, rows));
		if (logger.isDebugEnabled()) {
			logger.debug("Replaced {} rows in {}", rows.size(), this.targetTable);
		}
	}

	/**
	 * Writes rows of several statements (a snapshot chunk) in one transaction, so one commit and
	 * one log flush for the lot rather than one per statement; a failure leaves none of them
	 * written, and a deadlock or lock wait timeout, which rolled it back, runs it again.
	 */
	private void replaceInOneTransaction(List<Object[]> rows) throws SQLException {
		TRANSACTIONS.rerunOnContention("Upserting " + rows.size() + " rows in " + this.targetTable, () -> {
			try (Connection connection = this.target.getConnection()) {
				Sessions.prepareTarget(connection);
				connection.setAutoCommit(true);
				FencedTransaction.run(connection, this.fence, (c) -> {
					int from = 0;
					while (from < rows.size()) {
						int to = this.limits.cut(rows, from);
						this.statements.replace(c, rows.subList(from, to));
						from = to;
					}
				});
			}
			return null;
		});
	}

	/** Runs one statement: in autocommit, or alone in a fenced transaction. */
	private void runAlone(FencedTransaction.Work statement) throws SQLException {
		try (Connection connection = this.target.getConnection()) {
			Sessions.prepareTarget(connection);
			connection.setAutoCommit(true);
			if (this.fence.active()) {
				FencedTransaction.run(connection, this.fence, statement);
			}
			else {
				statement.run(connection);
			}
		}
	}

	/** Returns how statements are cut and prepared. */
	BatchLimits limits() {
		return this.limits;
	}

	/** Returns how many leading columns of an image are written. */
	public int width() {
		return this.width;
	}

	DataSource target() {
		return this.target;
	}

	TargetFence fence() {
		return this.fence;
	}

	TableLayout layout() {
		return this.layout;
	}

}
