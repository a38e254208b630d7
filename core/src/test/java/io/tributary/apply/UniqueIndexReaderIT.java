package io.tributary.apply;

import java.sql.Connection;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(DatabaseExtension.class)
class UniqueIndexReaderIT {

	@Test
	void readsUniqueSecondaryIndexesByOrdinal(TestDatabase db) throws Exception {
		String schema = db.schema("indexes");
		db.server().execute(schema, """
				CREATE TABLE t (id INT PRIMARY KEY, code VARCHAR(20), tenant INT NOT NULL, seq INT NOT NULL,
				  tag INT, UNIQUE KEY uk_tenant_seq (tenant, seq), UNIQUE KEY uk_code (code), KEY ix_tag (tag))""",
				"CREATE TABLE plain (id INT PRIMARY KEY, tag INT, KEY ix_tag (tag))");
		DataSource pool = db.dataSource(schema);

		List<UniqueIndex> indexes = read(pool, new TableId(schema, "t"));
		List<UniqueIndex> none = read(pool, new TableId(schema, "plain"));

		assertThat(indexes).containsExactly(new UniqueIndex("uk_code", new int[] { 1 }, List.of("code")),
				new UniqueIndex("uk_tenant_seq", new int[] { 2, 3 }, List.of("tenant", "seq")));
		assertThat(indexes.get(1).columnNames()).containsExactly("tenant", "seq");
		assertThat(none).isEmpty();
	}

	private static List<UniqueIndex> read(DataSource pool, TableId table) throws Exception {
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, table);
		}
		return UniqueIndexReader.read(pool, table, layout, null);
	}

}
