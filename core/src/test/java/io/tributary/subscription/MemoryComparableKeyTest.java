package io.tributary.subscription;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

/** Which keys a buffer may merge by key after the copy, and which need binlog order. */
class MemoryComparableKeyTest {

	@Test
	void binaryCollationsAreMemoryComparable() {
		assertThat(text("varchar", "utf8mb4_bin").isMemoryComparable()).isTrue();
		assertThat(text("varchar", "utf8mb4_0900_bin").isMemoryComparable()).isTrue();
		assertThat(text("varchar", "utf8mb4_nopad_bin").isMemoryComparable()).isTrue();
		assertThat(text("char", "binary").isMemoryComparable()).isTrue();
		assertThat(text("varchar", "LATIN1_BIN").isMemoryComparable()).isTrue();
	}

	@Test
	void insensitiveAndOtherCollationsAreNot() {
		assertThat(text("varchar", "utf8mb4_general_ci").isMemoryComparable()).isFalse();
		assertThat(text("varchar", "utf8mb4_0900_ai_ci").isMemoryComparable()).isFalse();
		assertThat(text("varchar", "utf8mb4_0900_as_cs").isMemoryComparable()).isFalse();
		assertThat(text("varchar", "latin1_swedish_ci").isMemoryComparable()).isFalse();
		assertThat(text("varchar", null).isMemoryComparable()).as("unknown collation").isFalse();
	}

	@Test
	void enumAndSetLabelsAreCanonical() {
		assertThat(text("enum", "utf8mb4_general_ci").isMemoryComparable()).isTrue();
		assertThat(text("set", "utf8mb4_general_ci").isMemoryComparable()).isTrue();
	}

	@Test
	void numericTemporalAndBinaryColumnsAreMemoryComparableButFloatsAreNot() {
		assertThat(other(ValueKind.INTEGER).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.UNSIGNED_BIGINT).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.DECIMAL).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.TEMPORAL).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.BYTES).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.BIT).isMemoryComparable()).isTrue();
		assertThat(other(ValueKind.DOUBLE).isMemoryComparable()).isFalse();
		assertThat(other(ValueKind.FLOAT).isMemoryComparable()).isFalse();
	}

	@Test
	void aCompositeKeyIsMemoryComparableOnlyWhenEveryColumnIs() {
		Column id = other(ValueKind.INTEGER);
		Column name = new Column("name", 1, "varchar", "varchar(10)", ValueKind.TEXT, false, StandardCharsets.UTF_8,
				10, 0, List.of(), false, "utf8mb4_general_ci");
		Column note = new Column("note", 2, "varchar", "varchar(10)", ValueKind.TEXT, false, StandardCharsets.UTF_8,
				10, 0, List.of(), true, "utf8mb4_general_ci");
		TableLayout idOnly = new TableLayout(FifoFixtures.TABLE, List.of(id, name, note), new int[] { 0 });
		TableLayout withName = new TableLayout(FifoFixtures.TABLE, List.of(id, name, note), new int[] { 0, 1 });
		assertThat(idOnly.keyIsMemoryComparable()).as("a case-insensitive column outside the key").isTrue();
		assertThat(withName.keyIsMemoryComparable()).isFalse();
	}

	@Test
	void theOldConstructorLeavesTheCollationUnknown() {
		Column column = new Column("k", 0, "varchar", "varchar(10)", ValueKind.TEXT, false, StandardCharsets.UTF_8,
				10, 0, List.of(), false);
		assertThat(column.collation()).isNull();
		assertThat(column.isMemoryComparable()).isFalse();
	}

	private static Column text(String dataType, String collation) {
		return new Column("k", 0, dataType, dataType + "(10)", ValueKind.TEXT, false, StandardCharsets.UTF_8, 10, 0,
				List.of(), false, collation);
	}

	private static Column other(ValueKind kind) {
		return new Column("k", 0, "t", "t", kind, false, null, 0, 0, List.of(), false);
	}

}
