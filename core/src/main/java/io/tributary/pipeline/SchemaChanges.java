package io.tributary.pipeline;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Decides whether a table's new layout, read after an ALTER in the stream, can be followed:
 * only columns added at the end, with the key and every existing column's type, character set and
 * collation unchanged, can. Anything else would give positional
 * row images a different meaning.
 */
final class SchemaChanges {

	private SchemaChanges() {
	}

	/** Returns why {@code next} cannot follow {@code current}, or {@code null} when it can. */
	static String incompatibility(TableLayout current, TableLayout next) {
		List<Column> before = current.columns();
		List<Column> after = next.columns();
		if (after.size() < before.size()) {
			return "it now has " + after.size() + " columns instead of " + before.size();
		}
		for (int i = 0; i < before.size(); i++) {
			Column was = before.get(i);
			Column is = after.get(i);
			if (!was.name().equalsIgnoreCase(is.name()) || !was.columnType().equalsIgnoreCase(is.columnType())) {
				return "column " + (i + 1) + " was " + was.name() + " " + was.columnType() + " and is now " + is.name()
						+ " " + is.columnType();
			}
			// Same type, other character set: row images now hold bytes of another encoding. Other
			// collation: keys may now compare equal that did not, and the target still sorts as before.
			if (!Objects.equals(was.charset(), is.charset()) || !Objects.equals(was.collation(), is.collation())) {
				return "column " + was.name() + " changed its character set or collation from "
						+ characterSet(was) + " to " + characterSet(is);
			}
		}
		if (!Arrays.equals(current.keyColumns(), next.keyColumns())) {
			return "its primary key changed";
		}
		return null;
	}

	private static String characterSet(Column column) {
		return ((column.charset() != null) ? column.charset().name() : "none") + " ("
				+ ((column.collation() != null) ? column.collation() : "no collation") + ")";
	}

	/**
	 * Returns how many leading columns of {@code next} the target can take: all of them when it has
	 * every added column with the same name and type, otherwise the {@code known} columns it had.
	 */
	static int writableWidth(TableLayout next, List<String[]> targetColumns, int known) {
		List<Column> columns = next.columns();
		if (targetColumns.size() < columns.size()) {
			return known;
		}
		for (int i = known; i < columns.size(); i++) {
			String[] target = targetColumns.get(i);
			if (!target[0].equalsIgnoreCase(columns.get(i).name())
					|| !target[1].equalsIgnoreCase(columns.get(i).columnType())) {
				return known;
			}
		}
		return columns.size();
	}

}
