package io.tributary.autoconfigure.actions;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.schema.SchemaException;

/**
 * Runs the actions on the pipelines and turns what the pipeline refuses into the
 * answer: 409 for an action that makes no sense in the table's or pipeline's state (or a table
 * whose layout or target still does not fit), 404 for a table the pipeline does not replicate, 503
 * when a database could not be asked or a flush did not finish in time, 500 for anything else. The
 * refusal carries the pipeline's own message.
 */
final class TableActions {

	private static final Logger logger = LoggerFactory.getLogger(TableActions.class);

	/** The actions, in the order the documentation lists them. */
	static final List<String> NAMES = List.of("pause", "resume", "flush", "resnapshot", "restart", "checksum");

	/** How long a flush request waits for a catch-up cycle before it answers 503. */
	static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(30);

	private TableActions() {
	}

	/**
	 * Refuses an unknown action name.
	 * @throws RequestRefused with 400 when the name is not one of {@link #NAMES}
	 */
	static void requireKnown(String action) {
		if (!NAMES.contains(action)) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST,
					"Unknown action '" + action + "'; the actions are " + NAMES);
		}
	}

	/**
	 * Runs an action on one table; {@code flush} applies what the table's whole pipeline buffers.
	 * Checksum and resume return once the work is under way; the table's status shows its progress.
	 * @param action one of {@link #NAMES}
	 * @param pipeline the pipeline that replicates the table
	 * @param table the source table; {@code null} only for {@code flush}, which acts on the pipeline
	 * @param user who asked, or {@code null} when unknown
	 * @throws RequestRefused when the pipeline refuses or cannot do it
	 */
	static void run(String action, Pipeline pipeline, TableId table, String user) {
		requireKnown(action);
		String what = action + " " + pipeline.name() + ((table != null) ? ":" + table : "");
		try {
			switch (action) {
				case "pause" -> pipeline.pause(table, user);
				case "resume" -> pipeline.resume(table, user);
				case "resnapshot" -> pipeline.resnapshot(table, user);
				case "restart" -> pipeline.restart(table, user);
				case "checksum" -> pipeline.checksum(table, user);
				case "flush" -> pipeline.flush(FLUSH_TIMEOUT, user);
			}
		}
		catch (IllegalStateException | SchemaException ex) {
			// A table whose layout or target still does not fit stays failed: the action conflicts with it.
			throw refused(what, RequestRefused.CONFLICT, ex.getMessage());
		}
		catch (IllegalArgumentException ex) {
			throw refused(what, RequestRefused.NOT_FOUND, ex.getMessage());
		}
		catch (SQLException ex) {
			throw refused(what, RequestRefused.SERVICE_UNAVAILABLE,
					"Cannot " + action + " " + table + ": a database could not be asked: " + ex.getMessage());
		}
		catch (TimeoutException ex) {
			throw refused(what, RequestRefused.SERVICE_UNAVAILABLE,
					"Cannot flush pipeline " + pipeline.name() + ": " + ex.getMessage()
							+ "; the pipeline may be applying a large backlog, see its tables' lastFlush");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw refused(what, RequestRefused.SERVICE_UNAVAILABLE,
					"Interrupted while waiting to " + action + " " + table);
		}
		catch (RuntimeException ex) {
			logger.warn("Action {} failed", what, ex);
			throw new RequestRefused(RequestRefused.INTERNAL_SERVER_ERROR,
					"Cannot " + action + " " + table + ": " + ex);
		}
		logger.info("Action {} asked by {}", what, (user != null) ? user : "an unnamed user");
	}

	private static RequestRefused refused(String what, int status, String message) {
		logger.debug("Action {} refused ({}): {}", what, status, message);
		return new RequestRefused(status, message);
	}

}
