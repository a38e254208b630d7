package io.tributary.name;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Table names compare without regard to case, and equal names hash alike; names are read as MySQL
 * quotes them, and written back so that they read the same.
 */
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

	@Test
	void readsBacktickQuotedPartsWithDotsAndDoubledBackticks() {
		assertThat(TableId.parse("`a.b`.`c``d`", null)).isEqualTo(new TableId("a.b", "c`d"));
		assertThat(TableId.parse("`special\"[``]$'_db`.`special\"[``]$'`", null))
			.isEqualTo(new TableId("special\"[`]$'_db", "special\"[`]$'"));
		assertThat(TableId.parse("shop.`a.b`", null)).isEqualTo(new TableId("shop", "a.b"));
		assertThat(TableId.parse("`odd.schema`.orders", null)).isEqualTo(new TableId("odd.schema", "orders"));
		assertThat(TableId.parse("```x```", "shop")).isEqualTo(new TableId("shop", "`x`"));
		assertThat(TableId.parse(" shop . `a b ` ", null)).isEqualTo(new TableId("shop", "a b "));
		assertThat(TableId.parse("dbz5743\u4e2d\u6587.t/1%", null)).isEqualTo(new TableId("dbz5743\u4e2d\u6587", "t/1%"));
		assertThat(TableId.parse("shop.my-table", null)).isEqualTo(new TableId("shop", "my-table"));
	}

	@Test
	void refusesMalformedNamesNamingThePosition() {
		assertThatThrownBy(() -> TableId.parse("shop.`orders", null))
			.hasMessageContaining("a quote that is never closed at position 6");
		assertThatThrownBy(() -> TableId.parse("`a``.b", null)).hasMessageContaining("never closed at position 1");
		assertThatThrownBy(() -> TableId.parse("shop.``", null)).hasMessageContaining("an empty part at position 6");
		assertThatThrownBy(() -> TableId.parse(".orders", null)).hasMessageContaining("an empty part at position 1");
		assertThatThrownBy(() -> TableId.parse("shop.", null)).hasMessageContaining("an empty part at position 6");
		assertThatThrownBy(() -> TableId.parse("`shop`x.orders", null))
			.hasMessageContaining("text after a closing quote at position 7");
		assertThatThrownBy(() -> TableId.parse("shop.ord`ers`", null))
			.hasMessageContaining("a backtick inside an unquoted part at position 9");
		assertThatThrownBy(() -> TableId.parse("`a.b`.c.d", null))
			.hasMessageContaining("not of the form schema.table")
			.hasMessageContaining("position 8");
	}

	@Test
	void writesOrdinaryNamesPlainAndOthersSoTheyReadBack() {
		assertThat(new TableId("shop", "orders")).hasToString("shop.orders");
		assertThat(new TableId("Shop", "my-table $1")).hasToString("Shop.my-table $1");
		assertThat(new TableId("dbz5743\u4e2d\u6587", "t")).hasToString("dbz5743\u4e2d\u6587.t");
		assertThat(new TableId("a.b", "c`d")).hasToString("`a.b`.`c``d`");
		assertThat(new TableId("shop", "special\"[`]$'")).hasToString("shop.`special\"[``]$'`");
		for (TableId id : new TableId[] { new TableId("a.b", "c`d"), new TableId("`", "``"), new TableId(" x", "y "),
				new TableId("shop", "special\"[`]$'"), new TableId("s", "a/b%20:c"), new TableId("s.", ".t.") }) {
			TableId back = TableId.parse(id.toString(), null);
			assertThat(back.schema()).isEqualTo(id.schema());
			assertThat(back.table()).isEqualTo(id.table());
		}
	}

	private static void assertEqualWithEqualHash(TableId one, TableId other) {
		assertThat(one).isEqualTo(other);
		assertThat(one.hashCode()).isEqualTo(other.hashCode());
	}

}
