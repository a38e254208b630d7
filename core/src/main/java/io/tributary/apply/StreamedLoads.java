package io.tributary.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.ha.FencedTransaction;
import io.tributary.ha.TargetFence;
import io.tributary.jdbc.Sessions;
import io.tributary.jdbc.SqlErrors;
import io.tributary.name.TableId;

/**
 * Loads row images into one target table with a {@link LocalInfileLoad} in a (fenced) transaction
 * where the connection and the server allow it, and otherwise leaves them to statements.
 *
 * <p>A server that refuses such loads ({@code local_infile=OFF}) gets statements from then on; a
 * load that left a warning is rolled back and its rows left to statements, whose strict SQL mode
 * refuses a value the table cannot hold, and so is one that failed in any other way, whose
 * statements then fail or succeed on their own. Lock contention is the exception: it is thrown as
 * a statement's would be, so that the caller retries and slows down alike. Thread-safe: the copy
 * threads load at once.
 */
final class StreamedLoads {

	// Logs as the applier, whose writes these are, so one logger setting covers them.
	private static final Logger logger = LoggerFactory.getLogger(JdbcReplaceApplier.class);

	private final DataSource target;

	private final TableId table;

	private final TargetFence fence;

	private final LocalInfileLoad load;

	/**
	 * Set once the target refused a load: rows are left to statements from then on. The copy
	 * threads that met the refusal together log it once, whoever sets it.
	 */
	private final AtomicBoolean refused = new AtomicBoolean();

	/** Set once a load left warnings, so the next ones are logged only at debug level. */
	private final AtomicBoolean warned = new AtomicBoolean();

	StreamedLoads(DataSource target, TableId table, TargetFence fence, LocalInfileLoad load) {
		this.target = target;
		this.table = table;
		this.fence = fence;
		this.load = load;
	}

	/**
	 * Loads rows in one transaction where the connection and the server allow it; returns false
	 * when they are still to be written.
	 * @throws SQLException only for lock contention, which rolled the load back, so that the caller
	 * retries as it retries a statement
	 */
	boolean loaded(List<Object[]> rows) throws SQLException {
		if (this.refused.get() || !this.load.encodes(rows)) {
			return false;
		}
		try (Connection connection = this.target.getConnection()) {
			if (!LocalInfileLoad.available(connection)) {
				return false;
			}
			Sessions.prepareTarget(connection);
			connection.setAutoCommit(true);
			FencedTransaction.run(connection, this.fence, (c) -> {
				try (Statement statement = this.load.load(c, rows)) {
					SQLWarning warning = LocalInfileLoad.hadWarnings(statement);
					if (warning != null) {
						throw new LoadWarning(warning);
					}
				}
			});
			return true;
		}
		catch (LoadWarning ex) {
			if (this.warned.compareAndSet(false, true)) {
				logger.warn("Loading {} rows into {} left a warning ({}: {}); rolled back, the rows are written with "
						+ "statements instead, which refuse a value the table cannot hold (later such loads are logged "
						+ "at debug level)", rows.size(), this.table, ex.warning.getErrorCode(),
						ex.warning.getMessage());
			}
			else {
				logger.debug("Loading {} rows into {} left a warning ({}); writing them with statements",
						rows.size(), this.table, ex.warning.getMessage());
			}
			return false;
		}
		catch (SQLException ex) {
			if (SqlErrors.isContention(ex)) {
				throw ex;
			}
			if (!SqlErrors.isLoadRefused(ex)) {
				logger.debug("Loading {} rows into {} failed; writing them with statements: {}", rows.size(),
						this.table, ex.getMessage());
			}
			else if (this.refused.compareAndSet(false, true)) {
				logger.info("The target refuses LOAD DATA LOCAL INFILE ({}); rows of {} are written with REPLACE "
						+ "statements. SET GLOBAL local_infile = ON on the target lets them be streamed, which "
						+ "writes faster", ex.getMessage(), this.table);
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

}
