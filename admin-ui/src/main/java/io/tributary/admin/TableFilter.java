package io.tributary.admin;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.tributary.autoconfigure.TableTrouble;
import io.tributary.status.TableStatus;

/**
 * The overview's filter, as typed in its box and carried in the {@code q} query parameter: words
 * separated by spaces, each of which a table must match. {@code phase:failed} keeps a phase,
 * {@code rule:cdc.tables[2]} a rule's tables ({@code rule:none} those listed on their own),
 * {@code is:trouble} the tables that need attention; any other word is looked for, ignoring case,
 * in the table's name, its destination, its rule and its phase.
 */
final class TableFilter {

	static final TableFilter NONE = new TableFilter(null);

	private final String text;

	private final List<String> words;

	private TableFilter(String text) {
		this.text = (text != null && !text.isBlank()) ? text.strip() : null;
		this.words = (this.text != null)
				? Arrays.stream(this.text.toLowerCase(Locale.ROOT).split("\\s+")).toList() : List.of();
	}

	static TableFilter of(String text) {
		return new TableFilter(text);
	}

	/** Returns the filter as typed, trimmed, or {@code null} when it keeps every table. */
	String text() {
		return this.text;
	}

	boolean keepsAll() {
		return this.words.isEmpty();
	}

	boolean keeps(TableStatus table) {
		for (String word : this.words) {
			if (!matches(word, table)) {
				return false;
			}
		}
		return true;
	}

	private static boolean matches(String word, TableStatus table) {
		String phase = table.phase().name().toLowerCase(Locale.ROOT);
		if (word.startsWith("phase:")) {
			return phase.equals(word.substring(6).replace('-', '_'));
		}
		if (word.startsWith("rule:")) {
			String rule = word.substring(5);
			return (table.rule() == null) ? rule.isEmpty() || rule.equals("none")
					: table.rule().toLowerCase(Locale.ROOT).equals(rule);
		}
		if (word.equals("is:trouble")) {
			return TableTrouble.of(table) != null;
		}
		return table.name().toLowerCase(Locale.ROOT).contains(word)
				|| table.target().toLowerCase(Locale.ROOT).contains(word)
				|| (table.rule() != null && table.rule().toLowerCase(Locale.ROOT).contains(word))
				|| phase.equals(word.replace('-', '_'));
	}

}
