package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.ha.FencedTransaction;
import io.tributary.ha.TargetFence;
import io.tributary.jdbc.RetryPolicy;
import io.tributary.jdbc.RowReader;
import io.tributary.jdbc.Sessions;
import io.tributary.jdbc.SqlErrors;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;

/**
 * Applies changes to a MySQL/MariaDB target table with multi-row {@code REPLACE INTO} for row
 * images and {@code DELETE ... WHERE key IN (...)} for deletes.
 *
 * <p>REPLACE deletes every row that conflicts with the new one on the primary key or any unique
 * key before inserting it, so the rows of one statement can be in any order: a transaction that
 * moved a unique value from one row to another converges whichever row is written first.
 *
 * <p>Statements are cut at {@code batchRows} rows or about {@code batchBytes} of values,
 * whichever comes first, and each commits on its own. Only a statement of a table's full size, of
 * at most {@value #SERVER_SIDE_PLACEHOLDERS} placeholders, is prepared as the pool's driver
 * prepares statements (on a MariaDB target of Tributary's own pool: on the server, kept per
 * connection); any other size is prepared on the client ({@link ClientStatements}). A full-size
 * statement's text repeats from batch to batch, so the server parses it once per connection,
 * while the sizes of remainders vary, and each would hold its parameters in the connection's
 * statement cache. With an active {@link TargetFence} (several
 * instances, one leading) each write is an explicit transaction that proves leadership just before
 * it commits, and rolls back when it cannot.
 *
 * <p>A snapshot chunk ({@link #upsertChunk}), and a batch of row images of at least
 * {@value #LOAD_ROWS} rows (or the full size, when that is smaller), is loaded with one streamed
 * {@code LOAD DATA LOCAL INFILE ... REPLACE} in a transaction ({@link LocalInfileLoad}) when the
 * connection was opened to allow it ({@link TargetDriverProperties#streamedLoads()}): the server
 * parses the rows in bulk instead of value by value. Smaller batches, as while streaming, stay
 * statements, which take one round trip where a load in a transaction takes four. A server
 * that refuses such loads ({@code local_infile=OFF}) gets statements from then on; a load that
 * left a warning is rolled back and its rows written with statements, and so is one that failed
 * in any other way, whose statements then fail or succeed on their own. Lock contention is the
 * exception: it is thrown as a statement's would be, so that the caller retries and slows down
 * alike.
 */
public final class JdbcReplaceApplier implements Applier {

	/** Runs of a transaction of several statements that keeps meeting lock contention. */
	private static final RetryPolicy TRANSACTIONS = RetryPolicy.contention(5);

	private static final Logger logger = LoggerFactory.getLogger(JdbcReplaceApplier.class);

	/** The server refuses statements with more placeholders than this. */
	static final int MAX_PLACEHOLDERS = 65_535;

	/**
	 * Most placeholders of a statement that may be prepared on the server. The driver keeps a
	 * cached server-side statement's parameters on its connection, about 430 bytes each, so this
	 * bounds one cached statement to about 1.8 MB of heap.
	 */
	static final int SERVER_SIDE_PLACEHOLDERS = 4_096;

	/** Fewest rows of a batch that is loaded; see the class comment. */
	static final int LOAD_ROWS = 256;

	/** Rows per transaction when a fenced truncation deletes them. */
	static final int FENCED_DELETE_ROWS = 10_000;

	private final DataSource target;

	private final TableId targetTable;

	private final TableLayout layout;

	private final int batchRows;

	private final long batchBytes;

	private final String replacePrefix;

	/** How many leading source columns the target has; later ones are not written. */
	private final int width;

	/**
	 * Ordinals of the columns written, in order: the first {@link #width} except generated ones,
	 * to which the target refuses any value but their own.
	 */
	private final int[] written;

	private final TargetFence fence;

	private final LocalInfileLoad localLoad;

	/**
	 * Set once the target refused a load: chunks are written with statements from then on. The
	 * copy threads that met the refusal together log it once, whoever sets it.
	 */
	private final AtomicBoolean loadsRefused = new AtomicBoolean();

	/** Set once a load left warnings, so the next ones are logged only at debug level. */
	private final AtomicBoolean loadWarned = new AtomicBoolean();

	/** Fewest rows of a batch that is loaded rather than written as a statement. */
	private final int loadRows;

	/** Rows of a REPLACE that may be prepared on the server, or -1 when none may. */
	private final int serverSideRows;

	/** Keys of a DELETE that may be prepared on the server, or -1 when none may. */
	private final int serverSideKeys;

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
		this.target = target;
		this.fence = fence;
		this.targetTable = targetTable;
		this.layout = layout;
		this.width = width;
		this.written = layout.writtenColumns(width);
		this.batchRows = Math.max(1, Math.min(batchRows, MAX_PLACEHOLDERS / Math.max(1, this.written.length)));
		this.batchBytes = batchBytes;
		this.replacePrefix = "REPLACE INTO " + targetTable.quoted() + " ("
				+ Arrays.stream(this.written).mapToObj((ordinal) -> layout.columns().get(ordinal).quotedName())
					.collect(Collectors.joining(", "))
				+ ") VALUES ";
		this.serverSideRows = serverSideSize(this.batchRows, this.written.length);
		this.serverSideKeys = serverSideSize(maxDeleteKeys(), layout.keyColumns().length);
		this.localLoad = new LocalInfileLoad(targetTable, layout, width, this.written);
		this.loadRows = Math.min(this.batchRows, LOAD_ROWS);
	}

	private static int serverSideSize(int rows, int placeholdersPerRow) {
		return ((long) rows * placeholdersPerRow <= SERVER_SIDE_PLACEHOLDERS) ? rows : -1;
	}

	/**
	 * Empties the target table: with TRUNCATE, or, when fenced, with DELETEs of at most
	 * {@value #FENCED_DELETE_ROWS} rows in fenced transactions, since TRUNCATE commits on its own
	 * and could not be refused to an instance that no longer leads.
	 */
	public void truncate() {
		try (Connection connection = this.target.getConnection()) {
			if (!this.fence.active()) {
				try (Statement statement = connection.createStatement()) {
					statement.execute("TRUNCATE TABLE " + this.targetTable.quoted());
				}
				return;
			}
			Sessions.prepareTarget(connection);
			int[] deleted = new int[1];
			do {
				FencedTransaction.run(connection, this.fence, (c) -> {
					try (Statement statement = c.createStatement()) {
						deleted[0] = statement.executeUpdate(
								"DELETE FROM " + this.targetTable.quoted() + " LIMIT " + FENCED_DELETE_ROWS);
					}
				});
			}
			while (deleted[0] > 0);
		}
		catch (SQLException ex) {
			throw new ApplyException("Truncating " + this.targetTable + " failed: " + ex.getMessage(), ex);
		}
	}

	public TableId targetTable() {
		return this.targetTable;
	}

	@Override
	public void upsert(List<Object[]> rows) {
		upsert(rows, true);
	}

	/** Upserts rows; a single batch of them may be loaded when {@code mayLoad}. */
	private void upsert(List<Object[]> rows, boolean mayLoad) {
		int first = cut(rows, 0);
		if (first >= rows.size()) {
			if (!rows.isEmpty()) {
				write(rows, true, mayLoad);
			}
			return;
		}
		// Several statements (a snapshot chunk): one transaction, so one commit and one log flush
		// for the lot rather than one per statement; a failure leaves none of them written, and a
		// deadlock or lock wait timeout, which rolled it back, runs it again.
		try {
			TRANSACTIONS.rerunOnContention("Upserting " + rows.size() + " rows in " + this.targetTable, () -> {
				upsertInOneTransaction(rows);
				return null;
			});
		}
		catch (SQLException ex) {
			throw new ApplyException("Upserting " + rows.size() + " rows in " + this.targetTable + " failed: "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * Writes a snapshot chunk: loaded from memory where the connection and the server allow it,
	 * otherwise as {@link #upsert} writes rows.
	 */
	@Override
	public void upsertChunk(List<Object[]> rows) {
		try {
			if (!rows.isEmpty() && loaded(rows)) {
				return;
			}
		}
		catch (SQLException ex) {
			throw new ApplyException("Upserting " + rows.size() + " rows in " + this.targetTable + " failed: "
					+ ex.getMessage(), ex);
		}
		upsert(rows, false);
	}

	/**
	 * Loads rows in one transaction where the connection and the server allow it; returns false
	 * when they are still to be written.
	 * @throws SQLException only for lock contention, which rolled the load back, so that the caller
	 * retries as it retries a statement
	 */
	private boolean loaded(List<Object[]> rows) throws SQLException {
		if (this.loadsRefused.get() || !this.localLoad.encodes(rows)) {
			return false;
		}
		try (Connection connection = this.target.getConnection()) {
			if (!LocalInfileLoad.available(connection)) {
				return false;
			}
			Sessions.prepareTarget(connection);
			connection.setAutoCommit(true);
			FencedTransaction.run(connection, this.fence, (c) -> {
				try (Statement statement = this.localLoad.load(c, rows)) {
					SQLWarning warning = LocalInfileLoad.hadWarnings(statement);
					if (warning != null) {
						throw new LoadWarning(warning);
					}
				}
			});
			return true;
		}
		catch (LoadWarning ex) {
			if (this.loadWarned.compareAndSet(false, true)) {
				logger.warn("Loading {} rows into {} left a warning ({}: {}); rolled back, the rows are written with "
						+ "statements instead, which refuse a value the table cannot hold (later such loads are logged "
						+ "at debug level)", rows.size(), this.targetTable, ex.warning.getErrorCode(),
						ex.warning.getMessage());
			}
			else {
				logger.debug("Loading {} rows into {} left a warning ({}); writing them with statements",
						rows.size(), this.targetTable, ex.warning.getMessage());
			}
			return false;
		}
		catch (SQLException ex) {
			if (SqlErrors.isContention(ex)) {
				throw ex;
			}
			if (!SqlErrors.isLoadRefused(ex)) {
				logger.debug("Loading {} rows into {} failed; writing them with statements: {}", rows.size(),
						this.targetTable, ex.getMessage());
			}
			else if (this.loadsRefused.compareAndSet(false, true)) {
				logger.info("The target refuses LOAD DATA LOCAL INFILE ({}); rows of {} are written with REPLACE "
						+ "statements. SET GLOBAL local_infile = ON on the target lets them be streamed, which "
						+ "writes faster", ex.getMessage(), this.targetTable);
			}
			return false;
		}
	}

	/** A load that left a warning, thrown to roll its transaction back. */
	private static final class LoadWarning extends SQLException {

		private static final long serialVersionUID = 1L;

		private final transient SQLWarning warning;

		LoadWarning(SQLWarning warning) {
			super(warning.getMessage());
			this.warning = warning;
		}

	}

	private void upsertInOneTransaction(List<Object[]> rows) throws SQLException {
		try (Connection connection = this.target.getConnection()) {
			Sessions.prepareTarget(connection);
			connection.setAutoCommit(true);
			FencedTransaction.run(connection, this.fence, (c) -> {
				int from = 0;
				while (from < rows.size()) {
					int to = cut(rows, from);
					execute(c, rows.subList(from, to), true);
					from = to;
				}
			});
		}
	}

	@Override
	public void delete(List<Object[]> keys) {
		int perStatement = maxDeleteKeys();
		for (int from = 0; from < keys.size(); from += perStatement) {
			write(keys.subList(from, Math.min(keys.size(), from + perStatement)), false, false);
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
		List<Column> keys = this.layout.keys();
		KeyPredicates.Predicate above = KeyPredicates.greaterThan(keys);
		KeyPredicates.Predicate atMost = KeyPredicates.atMost(keys);
		StringBuilder sql = new StringBuilder("SELECT ");
		sql.append(keys.stream().map(Column::selectExpression).collect(Collectors.joining(", ")))
			.append(" FROM ")
			.append(this.targetTable.quoted())
			.append(" WHERE 1 = 1");
		List<Object> parameters = new ArrayList<>();
		if (lowerExclusive != null) {
			sql.append(" AND ").append(above.sql());
			parameters.addAll(above.parameters(lowerExclusive));
		}
		if (upperInclusive != null) {
			sql.append(" AND ").append(atMost.sql());
			parameters.addAll(atMost.parameters(upperInclusive));
		}
		List<Object[]> found = new ArrayList<>();
		try (Connection connection = this.target.getConnection()) {
			Sessions.prepareTarget(connection);
			try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
				for (int i = 0; i < parameters.size(); i++) {
					Values.bind(statement, i + 1, parameters.get(i));
				}
				try (ResultSet rs = statement.executeQuery()) {
					found.addAll(RowReader.readAll(rs, keys));
				}
			}
		}
		return found;
	}

	private int cut(List<Object[]> rows, int from) {
		long bytes = 0;
		int to = from;
		while (to < rows.size() && to - from < this.batchRows) {
			bytes += Values.sizeOf(rows.get(to));
			to++;
			if (bytes >= this.batchBytes) {
				break;
			}
		}
		return to;
	}

	private void write(List<Object[]> batch, boolean upsert, boolean mayLoad) {
		try {
			writeStatement(batch, upsert, mayLoad);
		}
		catch (SQLException ex) {
			throw new ApplyException((upsert ? "Upserting " : "Deleting ") + batch.size() + " rows in "
					+ this.targetTable + " failed: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Writes one batch as exactly one statement, whatever its size: an autocommit statement, or a
	 * fenced transaction of that one statement; or, for a batch of row images of at least
	 * {@value #LOAD_ROWS} rows (see the class comment), as one load in a transaction. The caller
	 * keeps it within {@link #maxUpsertRows()} or {@link #maxDeleteKeys()}.
	 * @param batch row images, or keys when {@code upsert} is false
	 * @param upsert whether to REPLACE images rather than DELETE keys
	 * @throws SQLException as the server reported it, so the caller can tell contention apart;
	 * {@link io.tributary.ha.FencedOutException} when the fence refused the write
	 */
	void writeStatement(List<Object[]> batch, boolean upsert) throws SQLException {
		writeStatement(batch, upsert, true);
	}

	private void writeStatement(List<Object[]> batch, boolean upsert, boolean mayLoad) throws SQLException {
		if (upsert && mayLoad && batch.size() >= this.loadRows && loaded(batch)) {
			if (logger.isDebugEnabled()) {
				logger.debug("Loaded {} rows into {}", batch.size(), this.targetTable);
			}
			return;
		}
		try (Connection connection = this.target.getConnection()) {
			Sessions.prepareTarget(connection);
			connection.setAutoCommit(true);
			if (this.fence.active()) {
				FencedTransaction.run(connection, this.fence, (c) -> execute(c, batch, upsert));
			}
			else {
				execute(connection, batch, upsert);
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("{} {} rows in {}", upsert ? "Replaced" : "Deleted", batch.size(), this.targetTable);
		}
	}

	private void execute(Connection connection, List<Object[]> batch, boolean upsert) throws SQLException {
		String sql = upsert ? replaceSql(batch) : "DELETE FROM " + this.targetTable.quoted() + " WHERE "
				+ KeyPredicates.in(this.layout.keys(), batch.size());
		boolean fullSize = batch.size() == (upsert ? this.serverSideRows : this.serverSideKeys);
		try (PreparedStatement statement = fullSize ? connection.prepareStatement(sql)
				: ClientStatements.prepare(connection, sql)) {
			int index = 1;
			for (Object[] values : batch) {
				if (!upsert) {
					for (Object value : values) {
						Values.bind(statement, index++, value);
					}
					continue;
				}
				for (int ordinal : this.written) {
					if (ordinal < values.length) {
						Values.bind(statement, index++, values[ordinal]);
					}
				}
			}
			statement.executeUpdate();
		}
	}

	/** Returns the most row images one REPLACE statement takes. */
	int maxUpsertRows() {
		return this.batchRows;
	}

	/** Returns the most keys one DELETE statement takes. */
	int maxDeleteKeys() {
		return Math.max(1, Math.min(this.batchRows, MAX_PLACEHOLDERS / this.layout.keyColumns().length));
	}

	/** Returns the approximate most bytes of values one statement carries. */
	long maxBatchBytes() {
		return this.batchBytes;
	}

	/** Returns how many leading columns of an image are written. */
	int width() {
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

	private String replaceSql(List<Object[]> rows) {
		String full = "(" + "?, ".repeat(this.written.length - 1) + "?)";
		StringBuilder sql = new StringBuilder(this.replacePrefix.length() + rows.size() * (full.length() + 2));
		sql.append(this.replacePrefix);
		for (int i = 0; i < rows.size(); i++) {
			sql.append((i > 0) ? ", " : "");
			int values = rows.get(i).length;
			if (values >= this.width) {
				sql.append(full);
				continue;
			}
			// An image read before columns were added at the end: those get their DEFAULT.
			sql.append('(');
			for (int j = 0; j < this.written.length; j++) {
				sql.append((j > 0) ? ", " : "").append((this.written[j] < values) ? "?" : "DEFAULT");
			}
			sql.append(')');
		}
		return sql.toString();
	}

}
