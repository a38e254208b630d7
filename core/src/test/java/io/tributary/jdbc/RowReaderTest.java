package io.tributary.jdbc;

import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.schema.Column;
import io.tributary.schema.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

class RowReaderTest {

	private static final List<Column> COLUMNS = List.of(column("id", 1, ValueKind.INTEGER),
			column("name", 2, ValueKind.TEXT));

	@Test
	void readsTheSelectedColumnsOfEachRowAsCanonicalValues() throws SQLException {
		ResultSet rs = resultSet(new Object[][] { { 1L, "one", "ignored" }, { 2L, null, "ignored" } });
		List<Object[]> rows = RowReader.readAll(rs, COLUMNS);
		assertThat(rows).hasSize(2);
		assertThat(rows.get(0)).containsExactly(1L, "one");
		assertThat(rows.get(1)).containsExactly(2L, null);
	}

	@Test
	void readsOnlyTheCurrentRow() throws SQLException {
		ResultSet rs = resultSet(new Object[][] { { 7L, "seven" }, { 8L, "eight" } });
		rs.next();
		assertThat(RowReader.read(rs, COLUMNS.subList(0, 1))).containsExactly(7L);
		assertThat(RowReader.readAll(rs, COLUMNS)).hasSize(1);
	}

	@Test
	void anEmptyResultHasNoRows() throws SQLException {
		assertThat(RowReader.readAll(resultSet(new Object[0][]), COLUMNS)).isEmpty();
	}

	private static Column column(String name, int ordinal, ValueKind kind) {
		String type = (kind == ValueKind.INTEGER) ? "int" : "varchar";
		return new Column(name, ordinal, type, type, kind, false, null, 0, 0, List.of(), true);
	}

	/** A forward-only result set over rows held in memory, answering what the reader asks. */
	private static ResultSet resultSet(Object[][] rows) {
		int[] at = { -1 };
		Object[] last = new Object[1];
		return (ResultSet) Proxy.newProxyInstance(RowReaderTest.class.getClassLoader(),
				new Class<?>[] { ResultSet.class }, (proxy, method, args) -> {
					switch (method.getName()) {
						case "next" -> {
							return ++at[0] < rows.length;
						}
						case "wasNull" -> {
							return last[0] == null;
						}
						case "getLong", "getString" -> {
							last[0] = rows[at[0]][(int) args[0] - 1];
							if (method.getName().equals("getLong")) {
								return (last[0] != null) ? (Long) last[0] : 0L;
							}
							return last[0];
						}
						default -> throw new UnsupportedOperationException(method.getName());
					}
				});
	}

}
