package io.tributary.apply;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariConfig;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which statements the applier prepares on the server, through a pool whose driver prepares
 * statements there ({@link TargetDriverProperties#serverSide()}): only those of the table's full
 * size and of at most {@value BatchLimits#SERVER_SIDE_PLACEHOLDERS} placeholders, each once
 * per connection. The pool holds one connection, so the session's counters of the server count
 * every statement the applier ran. Every statement, wherever it is prepared, goes through the
 * connection as the pool gives it, so a wrapper around the pool sees them all.
 */
@ExtendWith(DatabaseExtension.class)
class StatementPreparationIT {

	@Test
	void fullSizeStatementsArePreparedOnceOnTheServerAndOtherSizesOnTheClient(TestDatabase db) throws Exception {
		String schema = db.schema("sizes");
		try (HikariDataSource pool = onePreparingConnection(db, schema)) {
			AtomicInteger wrapped = new AtomicInteger();
			JdbcReplaceApplier applier = applier(countingPrepares(pool, wrapped), schema, "t", 2, 3);
			wrapped.set(0);
			Counters before = Counters.of(pool);
			applier.upsert(rows(1, 3, 2));
			applier.upsert(rows(4, 3, 2));
			applier.upsert(rows(7, 2, 2));
			applier.delete(keys(1, 3));
			applier.delete(keys(4, 3));
			applier.delete(keys(7, 1));
			Counters after = Counters.of(pool);
			// One REPLACE of 3 rows and one DELETE of 3 keys, each prepared once and run twice; the
			// 2-row REPLACE and the 1-key DELETE ran as text, prepared on the client.
			assertThat(after.prepared - before.prepared).isEqualTo(2);
			assertThat(after.executed - before.executed).isEqualTo(4);
			assertThat(wrapped).hasValue(6);
			assertThat(ids(pool, schema, "t")).containsExactly(8);
		}
	}

	@Test
	void aFullSizeStatementOfTooManyPlaceholdersIsPreparedOnTheClient(TestDatabase db) throws Exception {
		String schema = db.schema("wide");
		int width = 5;
		int batchRows = BatchLimits.SERVER_SIDE_PLACEHOLDERS / width + 1;
		try (HikariDataSource pool = onePreparingConnection(db, schema)) {
			JdbcReplaceApplier applier = applier(pool, schema, "w", width, batchRows);
			Counters before = Counters.of(pool);
			applier.upsert(rows(1, batchRows, width));
			applier.upsert(rows(1 + batchRows, batchRows, width));
			Counters after = Counters.of(pool);
			assertThat(after.prepared - before.prepared).isZero();
			assertThat(after.executed - before.executed).isZero();
			assertThat(ids(pool, schema, "w")).hasSize(2 * batchRows);
		}
	}

	private static HikariDataSource onePreparingConnection(TestDatabase db, String schema) {
		HikariConfig config = new HikariConfig();
		TargetDriverProperties.serverSide().forEach(config::addDataSourceProperty);
		config.setJdbcUrl(db.jdbcUrl(schema));
		config.setUsername(db.server().username());
		config.setPassword(db.server().password());
		config.setMaximumPoolSize(1);
		config.setPoolName("statement-preparation-it");
		return new HikariDataSource(config);
	}

	/** A wrapper around the pool, as an application's tracing would be, counting the statements prepared. */
	private static DataSource countingPrepares(DataSource pool, AtomicInteger prepared) {
		return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] { DataSource.class },
				(p, method, args) -> {
					Object result = call(pool, method, args);
					if (!(result instanceof Connection connection)) {
						return result;
					}
					return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] { Connection.class },
							(c, m, a) -> {
								if (m.getName().equals("prepareStatement")) {
									prepared.incrementAndGet();
								}
								return call(connection, m, a);
							});
				});
	}

	private static Object call(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private static JdbcReplaceApplier applier(DataSource pool, String schema, String table, int width,
			int batchRows) throws SQLException {
		TableId id = new TableId(schema, table);
		String columns = IntStream.range(1, width).mapToObj((i) -> ", c" + i + " VARCHAR(20)")
			.reduce("", String::concat);
		TableLayout layout;
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + id.quoted() + " (id INT PRIMARY KEY" + columns + ")");
			layout = LayoutReader.read(connection, id);
		}
		return new JdbcReplaceApplier(pool, id, layout, batchRows, 1 << 30);
	}

	private static List<Object[]> rows(int firstId, int count, int width) {
		List<Object[]> rows = new ArrayList<>();
		for (int id = firstId; id < firstId + count; id++) {
			Object[] row = new Object[width];
			row[0] = id;
			for (int i = 1; i < width; i++) {
				row[i] = "v" + id + "." + i;
			}
			rows.add(row);
		}
		return rows;
	}

	private static List<Object[]> keys(int firstId, int count) {
		return IntStream.range(firstId, firstId + count).mapToObj((id) -> new Object[] { id }).toList();
	}

	private static List<Integer> ids(HikariDataSource pool, String schema, String table) throws SQLException {
		List<Integer> ids = new ArrayList<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT id FROM " + new TableId(schema, table).quoted() + " ORDER BY id")) {
			while (rs.next()) {
				ids.add(rs.getInt(1));
			}
		}
		return ids;
	}

	/** The session's counters of statements prepared and executed on the server. */
	private record Counters(long prepared, long executed) {

		static Counters of(HikariDataSource pool) throws SQLException {
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN "
							+ "('Com_stmt_prepare', 'Com_stmt_execute')")) {
				long prepared = -1;
				long executed = -1;
				while (rs.next()) {
					if (rs.getString(1).equalsIgnoreCase("Com_stmt_prepare")) {
						prepared = rs.getLong(2);
					}
					else {
						executed = rs.getLong(2);
					}
				}
				assertThat(prepared).as("Com_stmt_prepare").isNotNegative();
				assertThat(executed).as("Com_stmt_execute").isNotNegative();
				return new Counters(prepared, executed);
			}
		}

	}

}
