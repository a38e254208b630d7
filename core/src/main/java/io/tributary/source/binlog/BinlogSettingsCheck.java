package io.tributary.source.binlog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Judges a source's binary log settings: the log must be on, in ROW format with FULL row images,
 * with whole JSON values and without compression, or the row images Tributary decodes are missing
 * or incomplete. Each problem names the setting, the value found and the statement that fixes it.
 */
final class BinlogSettingsCheck {

	private static final String PERSIST = " (and set it in the server's configuration file)";

	private BinlogSettingsCheck() {
	}

	/**
	 * Evaluates the binary log settings.
	 * @param variables global variables by name, as {@code SHOW GLOBAL VARIABLES} reports them; a
	 * variable the server does not have is absent
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for every setting Tributary cannot work with, empty when all are fine
	 */
	static List<String> problems(Map<String, String> variables, String where) {
		Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		values.putAll(variables);
		List<String> problems = new ArrayList<>();
		String logBin = values.get("log_bin");
		if (!isOn(logBin)) {
			problems.add("log_bin is " + shown(logBin) + " on " + where + "; Tributary reads the binary log: "
					+ "add log_bin=mysql-bin to the [mysqld] section of the server's configuration file "
					+ "and restart the server");
		}
		String format = values.get("binlog_format");
		if (!"ROW".equalsIgnoreCase(trim(format))) {
			problems.add("binlog_format is " + shown(format) + " on " + where + "; Tributary needs ROW: "
					+ "SET GLOBAL binlog_format = 'ROW'" + PERSIST);
		}
		String rowImage = values.get("binlog_row_image");
		if (!"FULL".equalsIgnoreCase(trim(rowImage))) {
			problems.add("binlog_row_image is " + shown(rowImage) + " on " + where + "; Tributary needs FULL: "
					+ "SET GLOBAL binlog_row_image = 'FULL'" + PERSIST);
		}
		String rowValueOptions = values.get("binlog_row_value_options");
		if (rowValueOptions != null && !rowValueOptions.isBlank()) {
			problems.add("binlog_row_value_options is " + shown(rowValueOptions) + " on " + where
					+ "; Tributary needs it empty so that row events carry whole JSON values: "
					+ "SET GLOBAL binlog_row_value_options = ''" + PERSIST);
		}
		String compression = values.get("binlog_transaction_compression");
		if (isOn(compression)) {
			problems.add("binlog_transaction_compression is " + shown(compression) + " on " + where
					+ "; Tributary does not decode compressed transaction payloads: "
					+ "SET GLOBAL binlog_transaction_compression = OFF" + PERSIST);
		}
		String compress = values.get("log_bin_compress");
		if (isOn(compress)) {
			problems.add("log_bin_compress is " + shown(compress) + " on " + where
					+ "; Tributary does not decode compressed row events: SET GLOBAL log_bin_compress = OFF" + PERSIST);
		}
		return problems;
	}

	private static boolean isOn(String value) {
		String text = trim(value);
		return text != null && (text.equalsIgnoreCase("ON") || text.equals("1") || text.equalsIgnoreCase("TRUE"));
	}

	private static String trim(String value) {
		return (value != null) ? value.trim() : null;
	}

	private static String shown(String value) {
		if (value == null) {
			return "not set";
		}
		return value.isBlank() ? "''" : value.trim();
	}

}
