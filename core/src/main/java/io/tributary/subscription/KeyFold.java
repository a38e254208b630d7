package io.tributary.subscription;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.tributary.schema.Column;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;

/**
 * Folds keys so that keys a collation may treat as one row fold to equal values: the values of
 * key columns that are not {@linkplain Column#isMemoryComparable() memory-comparable} are
 * decomposed (NFKD), stripped of combining marks and of trailing spaces, and case-folded; a
 * negative zero becomes zero. Other values are kept as they are.
 *
 * <p>This is an approximation made without the server: it covers case, accents and padding, not
 * every rule of every collation (such as {@code ß = s} in {@code utf8mb4_general_ci}). It is only
 * used to keep collation-equal keys out of one statement, and statements keep binlog order
 * anyway, so a miss costs no correctness.
 */
final class KeyFold {

	private static final Pattern MARKS = Pattern.compile("\\p{M}+");

	private final boolean[] folded;

	KeyFold(TableLayout layout) {
		List<Column> keys = layout.keys();
		this.folded = new boolean[keys.size()];
		for (int i = 0; i < this.folded.length; i++) {
			this.folded[i] = !keys.get(i).isMemoryComparable();
		}
	}

	/** Names the key columns a fold changes, with their types and collations, for a log line. */
	static List<String> describeFolded(TableLayout layout) {
		return layout.keys().stream().filter((column) -> !column.isMemoryComparable())
			.map((column) -> column.name() + " " + column.columnType()
					+ ((column.collation() != null) ? " COLLATE " + column.collation() : ""))
			.toList();
	}

	/** Returns the folded form of a key, the key itself when no column needs folding. */
	RowKey fold(RowKey key) {
		Object[] values = key.values();
		Object[] result = null;
		for (int i = 0; i < values.length && i < this.folded.length; i++) {
			if (!this.folded[i]) {
				continue;
			}
			if (result == null) {
				result = values.clone();
			}
			result[i] = foldValue(values[i]);
		}
		return (result != null) ? new RowKey(result) : key;
	}

	static Object foldValue(Object value) {
		if (value instanceof String text) {
			String bare = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFKD)).replaceAll("");
			String caseless = bare.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
			int end = caseless.length();
			while (end > 0 && caseless.charAt(end - 1) == ' ') {
				end--;
			}
			return caseless.substring(0, end);
		}
		if (value instanceof Double number && number == 0.0d) {
			return 0.0d;
		}
		if (value instanceof Float number && number == 0.0f) {
			return 0.0f;
		}
		return value;
	}

}
