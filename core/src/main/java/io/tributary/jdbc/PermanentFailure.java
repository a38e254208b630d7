package io.tributary.jdbc;

import java.sql.SQLException;
import java.util.Map;

/**
 * A target error that retrying will not cure: the target table or a column is missing, a value
 * does not fit, a constraint of the target refuses a row, or the user may not write. Such an error
 * stops the table it concerns, with what to do; connection losses, lock waits and deadlocks are
 * not permanent and are retried.
 *
 * @param errorCode the server's error number
 * @param advice what to change before restarting the table
 */
public record PermanentFailure(int errorCode, String advice) {

	private static final String FIT = "Make the target column wide enough for the source's values (the same "
			+ "type as the source is safest), then restart the table";

	private static final String GENERATED = "A column that is generated in the target was given a value, "
			+ "so it is not generated in the source: give the target column the source's definition (SHOW CREATE "
			+ "TABLE on the source), then restart the table";

	private static final Map<Integer, String> ADVICE = Map.ofEntries(
			Map.entry(1146, "The target table is missing: restart the table, which creates it, or create it "
					+ "yourself with the source's definition"),
			Map.entry(1054, "A column the source has is missing in the target: add it with the source's type, "
					+ "then restart the table"),
			Map.entry(1406, FIT), Map.entry(1264, FIT), Map.entry(1366, FIT), Map.entry(1292, FIT),
			Map.entry(1265, FIT),
			Map.entry(1048, "A target column is NOT NULL where the source has NULLs: make it nullable, then "
					+ "restart the table"),
			Map.entry(1364, "A target column has no default and the source does not have it: give it a default "
					+ "or drop it, then restart the table"),
			Map.entry(1062, "A unique key of the target that the source does not have refuses a row: drop that "
					+ "key from the target (or make the source enforce it), then restart the table"),
			Map.entry(1452, "A foreign key of the target refuses a row: drop foreign keys from the target "
					+ "table, since rows arrive in any order, then restart the table"),
			Map.entry(1451, "A foreign key of the target refuses a row: drop foreign keys from the target "
					+ "table, since rows arrive in any order, then restart the table"),
			Map.entry(3105, GENERATED), Map.entry(1906, GENERATED),
			Map.entry(1142, "The target user may not write this table: grant it INSERT, DELETE and DROP on the "
					+ "target schema, then restart the table"),
			Map.entry(1044, "The target user may not use the target schema: grant it access, then restart the "
					+ "table"));

	/**
	 * Returns the permanent failure behind an error, looking through its causes, next exceptions and
	 * suppressed errors (as {@link SqlErrors} does), or {@code null} when retrying may help.
	 * @param error what a write threw
	 * @return the failure, or {@code null}
	 */
	public static PermanentFailure of(Throwable error) {
		SQLException found = SqlErrors.find(error, (sql) -> ADVICE.containsKey(sql.getErrorCode()));
		return (found != null) ? new PermanentFailure(found.getErrorCode(), ADVICE.get(found.getErrorCode())) : null;
	}

}
