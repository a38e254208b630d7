package io.tributary.name;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Table patterns as a user writes them under {@code cdc.tables[n].source}, and target templates.
 */
class TablePatternTest {

	@Test
	void aNameWithoutWildcardsIsOneTable() {
		TablePattern pattern = TablePattern.parse("shop.orders");
		assertThat(pattern.isExact()).isTrue();
		assertThat(pattern.exact()).isEqualTo(new TableId("shop", "orders"));
		assertThat(pattern.matches(new TableId("SHOP", "Orders"))).isTrue();
		assertThat(pattern.matches(new TableId("shop", "orders2"))).isFalse();
	}

	@Test
	void wildcardsStandForAnyRunOrOneCharacterAndNothingElseIsSpecial() {
		TablePattern pattern = TablePattern.parse("shop.order_*");
		assertThat(pattern.isExact()).isFalse();
		assertThat(pattern.matches(new TableId("shop", "order_07"))).isTrue();
		assertThat(pattern.matches(new TableId("shop", "order_"))).isTrue();
		assertThat(pattern.matches(new TableId("shop", "orderX07"))).as("_ is itself, not LIKE's any").isFalse();
		assertThat(pattern.matches(new TableId("shop2", "order_07"))).isFalse();
		TablePattern one = TablePattern.parse("sales_?.t");
		assertThat(one.matches(new TableId("sales_1", "t"))).isTrue();
		assertThat(one.matches(new TableId("sales_12", "t"))).isFalse();
		assertThat(TablePattern.parse("shop.*").matches(new TableId("shop", "a.b"))).isTrue();
		assertThat(TablePattern.parse("shop.(x)*").matches(new TableId("shop", "(x)1"))).isTrue();
	}

	@Test
	void aQuotedPartIsLiteral() {
		TablePattern pattern = TablePattern.parse("`odd.schema`.`a*`");
		assertThat(pattern.isExact()).isTrue();
		assertThat(pattern.exact()).isEqualTo(new TableId("odd.schema", "a*"));
		TablePattern mixed = TablePattern.parse("`odd.schema`.t_*");
		assertThat(mixed.matches(new TableId("odd.schema", "t_1"))).isTrue();
		assertThat(mixed.matches(new TableId("oddXschema", "t_1"))).isFalse();
	}

	@Test
	void aRegularExpressionMatchesTheWholeName() {
		TablePattern pattern = TablePattern.parse("regex:shop\\.order_[0-9]+");
		assertThat(pattern.matches(new TableId("shop", "order_12"))).isTrue();
		assertThat(pattern.matches(new TableId("Shop", "ORDER_12"))).isTrue();
		assertThat(pattern.matches(new TableId("shop", "order_12_old"))).isFalse();
		assertThat(pattern.matches(new TableId("myshop", "order_12"))).isFalse();
	}

	@Test
	void faultsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> TablePattern.parse("orders"))
			.withMessageContaining("names no schema");
		assertThatIllegalArgumentException().isThrownBy(() -> TablePattern.parse("regex:shop.(x"))
			.withMessageContaining("is not a regular expression").withMessageContaining("position");
		assertThatIllegalArgumentException().isThrownBy(() -> TablePattern.parse("shop.`a"))
			.withMessageContaining("never closed");
		assertThatIllegalArgumentException().isThrownBy(() -> TablePattern.parse(" "))
			.withMessageContaining("empty");
	}

	@Test
	void aTemplatePutsTheSourceNamesInAsTheyAre() {
		TargetTemplate template = TargetTemplate.parse("{schema}_copy.{table}", null);
		assertThat(template.isFixed()).isFalse();
		assertThat(template.resolve(new TableId("shop", "a.b`c"))).isEqualTo(new TableId("shop_copy", "a.b`c"));
		assertThat(TargetTemplate.parse("{table}", "replica").resolve(new TableId("shop", "t")))
			.isEqualTo(new TableId("replica", "t"));
		assertThat(TargetTemplate.parse("`odd.x`.`pre_{table}`", null).resolve(new TableId("s", "t")))
			.isEqualTo(new TableId("odd.x", "pre_t"));
		assertThat(TargetTemplate.parse("replica.all_orders", null).isFixed()).isTrue();
	}

	@Test
	void aTemplateRefusesUnknownPlaceholdersAndAMissingSchema() {
		assertThatIllegalArgumentException().isThrownBy(() -> TargetTemplate.parse("replica.{name}", null))
			.withMessageContaining("{name}");
		assertThatIllegalArgumentException().isThrownBy(() -> TargetTemplate.parse("{table}", null))
			.withMessageContaining("qualified with its schema");
	}

}
