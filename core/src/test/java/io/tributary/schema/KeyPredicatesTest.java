package io.tributary.schema;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyPredicatesTest {

	private static final List<Column> KEYS = List.of(column("a", 0), column("b", 1));

	@Test
	void expandsCompositeComparisonsIntoRanges() {
		KeyPredicates.Predicate above = KeyPredicates.greaterThan(KEYS);
		assertThat(above.sql()).isEqualTo("((`a` > ?) OR (`a` = ? AND `b` > ?))");
		assertThat(above.parameters(new Object[] { 1L, 2L })).containsExactly(1L, 1L, 2L);
		assertThat(KeyPredicates.atMost(KEYS).sql()).isEqualTo("((`a` < ?) OR (`a` = ? AND `b` <= ?))");
		assertThat(KeyPredicates.atMost(KEYS.subList(0, 1)).sql()).isEqualTo("((`a` <= ?))");
	}

	@Test
	void buildsInListsForSingleAndCompositeKeys() {
		assertThat(KeyPredicates.in(KEYS.subList(0, 1), 2)).isEqualTo("`a` IN (?, ?)");
		assertThat(KeyPredicates.in(KEYS, 2)).isEqualTo("(`a`, `b`) IN ((?, ?), (?, ?))");
	}

	@Test
	void parsesEnumLabelsWithQuotes() {
		assertThat(LayoutReader.labels("enum('a','it''s','x,y')")).containsExactly("a", "it's", "x,y");
	}

	private static Column column(String name, int ordinal) {
		return new Column(name, ordinal, "int", "int", ValueKind.INTEGER, false, null, 0, 0, List.of(), false);
	}

}
