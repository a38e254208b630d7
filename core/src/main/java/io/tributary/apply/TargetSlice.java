package io.tributary.apply;

import java.util.Objects;

import io.tributary.name.TableId;

/**
 * The part of a target table one source table owns when several are merged into it (shards): the
 * rows whose slice column holds the source table's value. Every statement that writes, deletes,
 * reads keys or empties the target names the slice, so one shard's changes, copy, checksum and
 * TRUNCATE never touch another's rows; the column leads the target's primary key and each of its
 * unique keys, so equal keys in two shards are two rows.
 *
 * @param column the slice column's name in the target
 * @param value the source table's value in it
 */
public record TargetSlice(String column, String value) {

	/** Longest value a slice column holds, as Tributary creates it. */
	public static final int MAX_VALUE_LENGTH = 190;

	public TargetSlice {
		Objects.requireNonNull(column, "column");
		Objects.requireNonNull(value, "value");
		if (column.isBlank()) {
			throw new IllegalArgumentException("A shard column needs a name");
		}
		if (value.indexOf('\'') >= 0 || value.indexOf('\\') >= 0) {
			// Written as a literal, which reads the same under every sql_mode only without these.
			throw new IllegalArgumentException("Shard value '" + value + "' holds a quote or a backslash; "
					+ "name the shards without them");
		}
		if (value.length() > MAX_VALUE_LENGTH) {
			throw new IllegalArgumentException("Shard value '" + value + "' is longer than " + MAX_VALUE_LENGTH
					+ " characters");
		}
	}

	/** Returns the column as SQL names it. */
	public String quotedColumn() {
		return TableId.quote(this.column);
	}

	/** Returns the value as an SQL string literal. */
	public String literal() {
		return "'" + this.value + "'";
	}

	/** Returns the predicate that selects the slice, as in {@code `shard` = 'orders_07'}. */
	public String predicate() {
		return quotedColumn() + " = " + literal();
	}

	/** Returns the column's definition in a target Tributary creates. */
	String definition() {
		return quotedColumn() + " VARCHAR(" + MAX_VALUE_LENGTH + ") CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL";
	}

}
