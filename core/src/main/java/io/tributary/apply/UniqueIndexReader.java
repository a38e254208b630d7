package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Reads the UNIQUE secondary indexes of a table from {@code information_schema.STATISTICS} and
 * maps their columns onto a layout's row-image ordinals.
 *
 * <p>Only indexes whose entries are ordered by the column values themselves qualify: the primary
 * key is left out, and so are functional indexes (no column to read a value from) and hash
 * indexes (MariaDB's long unique keys), whose order no value comparator can reproduce.
 */
final class UniqueIndexReader {

	private static final Logger logger = LoggerFactory.getLogger(UniqueIndexReader.class);

	private UniqueIndexReader() {
	}

	/**
	 * Reads the usable unique secondary indexes.
	 * @param target pool of the server holding the table
	 * @param table the table
	 * @param layout the layout whose ordinals the result refers to
	 * @param slice the slice the layout's table owns, whose column the indexes lead with, or {@code null}
	 * @return the indexes, ordered by name
	 * @throws SQLException on a database error
	 */
	static List<UniqueIndex> read(DataSource target, TableId table, TableLayout layout, TargetSlice slice)
			throws SQLException {
		Map<String, List<String>> columnsByIndex = new LinkedHashMap<>();
		Map<String, String> unusable = new LinkedHashMap<>();
		try (Connection connection = target.getConnection();
				PreparedStatement statement = connection.prepareStatement("""
						SELECT INDEX_NAME, COLUMN_NAME, INDEX_TYPE FROM information_schema.STATISTICS
						WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'
						ORDER BY INDEX_NAME, SEQ_IN_INDEX""")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					String index = rs.getString(1);
					String column = rs.getString(2);
					String type = rs.getString(3);
					if (column == null) {
						unusable.put(index, "it indexes an expression");
					}
					else if (type != null && !type.equalsIgnoreCase("BTREE")) {
						unusable.put(index, "it is a " + type + " index");
					}
					columnsByIndex.computeIfAbsent(index, (name) -> new ArrayList<>()).add(column);
				}
			}
		}
		List<UniqueIndex> indexes = new ArrayList<>();
		for (Map.Entry<String, List<String>> index : columnsByIndex.entrySet()) {
			String reason = unusable.get(index.getKey());
			// Within one slice, a unique key that leads with the slice column is unique on the others.
			List<String> columns = index.getValue().stream()
				.filter((column) -> slice == null || !column.equalsIgnoreCase(slice.column()))
				.toList();
			int[] ordinals = (reason != null || columns.isEmpty()) ? null : ordinals(layout, columns);
			if (ordinals == null) {
				logger.debug("Unique index {} of {} is not used to partition flushes: {}", index.getKey(), table,
						(reason != null) ? reason : "a column is not in the replicated layout");
				continue;
			}
			indexes.add(new UniqueIndex(index.getKey(), ordinals, columns));
		}
		return indexes;
	}

	private static int[] ordinals(TableLayout layout, List<String> names) {
		int[] ordinals = new int[names.size()];
		for (int i = 0; i < ordinals.length; i++) {
			String name = names.get(i);
			ordinals[i] = layout.columns()
				.stream()
				.filter((column) -> column.name().equalsIgnoreCase(name))
				.mapToInt(Column::ordinal)
				.findFirst()
				.orElse(-1);
			if (ordinals[i] < 0) {
				return null;
			}
		}
		return ordinals;
	}

}
