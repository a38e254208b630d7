package io.tributary.subscription;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

/** A table {@code t(k VARCHAR(10) COLLATE utf8mb4_general_ci PRIMARY KEY, v INT)} and helpers. */
final class FifoFixtures {

	static final TableId TABLE = new TableId("s", "t");

	static final TableLayout CASE_INSENSITIVE = layout("utf8mb4_general_ci");

	private FifoFixtures() {
	}

	static TableLayout layout(String collation) {
		return new TableLayout(TABLE,
				List.of(new Column("k", 0, "varchar", "varchar(10)", ValueKind.TEXT, false, StandardCharsets.UTF_8, 10,
						0, List.of(), false, collation),
						new Column("v", 1, "int", "int", ValueKind.INTEGER, false, null, 0, 0, List.of(), true)),
				new int[] { 0 });
	}

	static Position at(long offset) {
		return Position.of("mysql-bin.000001", offset);
	}

	static RowChange upsert(String key, long value) {
		return new RowChange(TABLE, new Object[] { key }, new Object[] { key, value });
	}

	static RowChange delete(String key) {
		return new RowChange(TABLE, new Object[] { key }, null);
	}

	/** Renders changes as {@code +A=1} and {@code -A}, in order. */
	static List<String> render(List<BufferedChange> entries) {
		return entries.stream()
			.map((e) -> e.isDelete() ? "-" + e.key().values()[0] : "+" + e.image()[0] + "=" + e.image()[1])
			.toList();
	}

	/** Renders runs as their statements, such as {@code upsert [A=1, B=2]}. */
	static List<String> statements(List<ChangeRun> runs) {
		return runs.stream().map(FifoFixtures::statement).toList();
	}

	static String statement(ChangeRun run) {
		return (run.delete() ? "delete " : "upsert ") + run.values().stream()
			.map((values) -> (values.length == 1) ? String.valueOf(values[0]) : values[0] + "=" + values[1])
			.collect(Collectors.joining(", ", "[", "]"));
	}

	/** Records the statements it is given and fails the one numbered {@code failAt} (from 0). */
	static final class RecordingApplier implements Applier {

		final List<String> statements = new ArrayList<>();

		int failAt = -1;

		@Override
		public void upsert(List<Object[]> rows) {
			record("upsert", rows);
		}

		@Override
		public void delete(List<Object[]> keys) {
			record("delete", keys);
		}

		private void record(String kind, List<Object[]> values) {
			if (this.statements.size() == this.failAt) {
				this.failAt = -1;
				throw new ApplyException("Deadlock found when trying to get lock", null);
			}
			this.statements.add(kind + " " + values.stream()
				.map((v) -> (v.length == 1) ? String.valueOf(v[0]) : v[0] + "=" + v[1])
				.collect(Collectors.joining(", ", "[", "]")));
		}

	}

}
