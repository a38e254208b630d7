package io.tributary.source;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Table names compare without regard to case, and equal names hash alike. */
class TableIdTest {

	@Test
	void namesDifferingOnlyInCaseAreOneTableWithOneHash() {
		assertEqualWithEqualHash(new TableId("Shop", "Orders"), new TableId("shop", "ORDERS"));
		assertEqualWithEqualHash(new TableId("caf\u00c9", "\u00c4pfel"), new TableId("CAF\u00e9", "\u00e4PFEL"));
		// The dotless i upper-cases to I, so equalsIgnoreCase takes the two for one letter.
		assertEqualWithEqualHash(new TableId("\u0131tems", "t"), new TableId("Items", "T"));
		assertThat(new TableId("shop", "orders")).isNotEqualTo(new TableId("shop", "order"));
		assertThat(new TableId("a", "bc")).isNotEqualTo(new TableId("ab", "c"));
	}

	@Test
	void parsesQualifiedNamesAndRefusesOthers() {
		assertThat(TableId.parse(" `shop`.orders ", null)).isEqualTo(new TableId("shop", "orders"));
		assertThat(TableId.parse("orders", "shop")).isEqualTo(new TableId("shop", "orders"));
		assertThatThrownBy(() -> TableId.parse("orders", null)).hasMessageContaining("qualified with its schema");
		assertThatThrownBy(() -> TableId.parse("a.b.c", null)).hasMessageContaining("not of the form schema.table");
	}

	private static void assertEqualWithEqualHash(TableId one, TableId other) {
		assertThat(one).isEqualTo(other);
		assertThat(one.hashCode()).isEqualTo(other.hashCode());
	}

}
