package io.tributary.name;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a table name written as MySQL writes it into its parts: {@code a.b}, {@code `a.b`.`c``d`},
 * or one part alone. Faults are reported with their 1-based character position, so that a user can
 * find them in a long quoted name.
 */
final class NameReader {

	private final String text;

	private int at;

	NameReader(String text) {
		this.text = text;
	}

	/** Returns the one or two parts of the name, unquoted. */
	List<String> parts() {
		return read().stream().map(Part::text).toList();
	}

	/** Returns the one or two parts of the name, unquoted, each with whether it was quoted. */
	List<Part> read() {
		List<Part> parts = new ArrayList<>(2);
		while (true) {
			skipSpace();
			boolean quoted = this.at < this.text.length() && this.text.charAt(this.at) == '`';
			parts.add(new Part(quoted ? quoted() : plain(), quoted));
			skipSpace();
			if (this.at == this.text.length()) {
				return parts;
			}
			if (this.text.charAt(this.at) != '.') {
				throw fault("text after a closing quote");
			}
			if (parts.size() == 2) {
				throw fault("a third part; the name is not of the form schema.table");
			}
			this.at++;
		}
	}

	private String quoted() {
		int open = this.at++;
		StringBuilder part = new StringBuilder();
		while (true) {
			int close = this.text.indexOf('`', this.at);
			if (close < 0) {
				this.at = open;
				throw fault("a quote that is never closed");
			}
			part.append(this.text, this.at, close);
			this.at = close + 1;
			if (this.at < this.text.length() && this.text.charAt(this.at) == '`') {
				// A doubled backtick stands for one inside the name.
				part.append('`');
				this.at++;
			}
			else {
				break;
			}
		}
		if (part.isEmpty()) {
			this.at = open;
			throw fault("an empty part");
		}
		return part.toString();
	}

	private String plain() {
		int start = this.at;
		while (this.at < this.text.length() && this.text.charAt(this.at) != '.' && this.text.charAt(this.at) != '`') {
			this.at++;
		}
		if (this.at < this.text.length() && this.text.charAt(this.at) == '`') {
			throw fault("a backtick inside an unquoted part");
		}
		String part = this.text.substring(start, this.at).trim();
		if (part.isEmpty()) {
			this.at = start;
			throw fault("an empty part");
		}
		return part;
	}

	private void skipSpace() {
		while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) {
			this.at++;
		}
	}

	/**
	 * One part of a name.
	 *
	 * @param text the part, unquoted
	 * @param quoted whether it was written in backticks
	 */
	record Part(String text, boolean quoted) {

	}

	private IllegalArgumentException fault(String what) {
		return new IllegalArgumentException("Table name '" + this.text + "' has " + what + " at position "
				+ (this.at + 1) + "; write it as schema.table, quoting a part that holds a dot or a backtick "
				+ "with backticks, as in `odd.schema`.`a``b`");
	}

}
