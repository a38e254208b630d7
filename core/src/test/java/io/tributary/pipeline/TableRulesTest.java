package io.tributary.pipeline;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.name.TargetTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Which tables the rules of a pipeline take from those the source has, and the refusals of what
 * would be ambiguous.
 */
class TableRulesTest {

	private static final List<TableId> PRESENT = List.of(new TableId("shop", "orders_01"),
			new TableId("shop", "orders_00"), new TableId("shop", "customers"), new TableId("crm", "customers"),
			new TableId("shop", "orders_archive"));

	@Test
	void aRuleTakesWhatItsPatternMatchesButNotWhatItExcludesListedTablesFirst() {
		TableMapping listed = new TableMapping(new TableId("crm", "customers"), new TableId("replica", "crm_customers"));
		TableRule orders = rule("cdc.tables[1]", "shop.orders_*", List.of("shop.orders_archive"), "replica.{table}");
		List<TableMapping> tables = TableRules.resolve(List.of(listed), List.of(orders), PRESENT, Set.of());
		assertThat(tables).extracting((t) -> t.source() + " -> " + t.destination() + " by " + t.rule())
			.containsExactly("crm.customers -> replica.crm_customers by null",
					"shop.orders_00 -> replica.orders_00 by cdc.tables[1]",
					"shop.orders_01 -> replica.orders_01 by cdc.tables[1]");
	}

	@Test
	void reservedTablesAreNeverTaken() {
		TableRule all = rule("everything", "shop.*", List.of(), "{schema}_copy.{table}");
		List<TableMapping> tables = TableRules.resolve(List.of(), List.of(all), PRESENT,
				Set.of(new TableId("SHOP", "customers")));
		assertThat(tables).extracting(TableMapping::source)
			.containsExactly(new TableId("shop", "orders_00"), new TableId("shop", "orders_01"),
					new TableId("shop", "orders_archive"));
		assertThat(tables.get(0).destination()).isEqualTo(new Destination.Table(new TableId("shop_copy", "orders_00")));
	}

	@Test
	void aTableTakenTwiceIsRefusedNamingBothRules() {
		TableRule first = rule("cdc.tables[0]", "shop.*", List.of(), "a.{table}");
		TableRule second = rule("cdc.tables[1]", "regex:shop\\.orders_0[0-9]", List.of(), "b.{table}");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(), List.of(first, second), PRESENT, Set.of()))
			.withMessageContaining("shop.orders_00 is taken by two rules, cdc.tables[0] (shop.*) and cdc.tables[1]")
			.withMessageContaining("exclude it from one of them");
	}

	@Test
	void aMergingRuleSendsItsTablesToOneTargetEachInItsSlice() {
		TableRule shards = rule("shards", "shop.orders_0*", List.of(), "replica.orders").merging("shard",
				ShardValue.TABLE);
		List<TableMapping> tables = TableRules.resolve(List.of(), List.of(shards), PRESENT, Set.of());
		assertThat(tables).extracting((t) -> t.source() + " -> " + t.destination() + " where " + t.slice().predicate())
			.containsExactly("shop.orders_00 -> replica.orders where `shard` = 'orders_00'",
					"shop.orders_01 -> replica.orders where `shard` = 'orders_01'");
	}

	@Test
	void mergedTablesThatWouldShareASliceOrMeetUnmergedOnesAreRefused() {
		TableRule byTable = rule("customers", "*.customers", List.of(), "replica.customers").merging("shard",
				ShardValue.TABLE);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(), List.of(byTable), PRESENT, Set.of()))
			.withMessageContaining("crm.customers and shop.customers would both write the rows of replica.customers "
					+ "whose shard is 'customers'")
			.withMessageContaining("merge value schema-table");
		assertThat(TableRules.resolve(List.of(), List.of(rule("customers", "*.customers", List.of(),
				"replica.customers").merging("shard", ShardValue.SCHEMA)), PRESENT, Set.of()))
			.extracting((t) -> t.slice().value()).containsExactly("crm", "shop");

		TableMapping listed = new TableMapping(new TableId("shop", "orders_archive"), new TableId("replica", "orders"));
		TableRule shards = rule("shards", "shop.orders_0*", List.of(), "replica.orders").merging("shard",
				ShardValue.TABLE);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(listed), List.of(shards), PRESENT, Set.of()))
			.withMessageContaining("would both go to replica.orders");
	}

	@Test
	void aListedTableThatARuleTakesTooIsRefused() {
		TableMapping listed = new TableMapping(new TableId("shop", "customers"), new TableId("replica", "c"));
		TableRule all = rule("cdc.tables[1]", "shop.*", List.of(), "replica.{table}");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(listed), List.of(all), PRESENT, Set.of()))
			.withMessageContaining("shop.customers is listed on its own and also taken by rule cdc.tables[1] (shop.*)");
	}

	@Test
	void twoTablesToOneTargetAreRefused() {
		TableRule customers = rule("customers", "*.customers", List.of(), "replica.{table}");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(), List.of(customers), PRESENT, Set.of()))
			.withMessageContaining("crm.customers (rule customers) and shop.customers (rule customers) would both go "
					+ "to replica.customers")
			.withMessageContaining("{schema}");
		TableRule fixed = rule("fixed", "shop.orders_0?", List.of(), "replica.all_orders");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TableRules.resolve(List.of(), List.of(fixed), PRESENT, Set.of()))
			.withMessageContaining("would both go to replica.all_orders");
	}

	@Test
	void aRuleThatTakesNothingYetIsNoFault() {
		TableRule none = rule("later", "new_schema.*", List.of(), "replica.{table}");
		assertThat(TableRules.resolve(List.of(), List.of(none), PRESENT, Set.of())).isEmpty();
	}

	private static TableRule rule(String name, String include, List<String> exclude, String target) {
		return TableRule.toTables(name, TablePattern.parse(include), exclude.stream().map(TablePattern::parse).toList(),
				TargetTemplate.parse(target, null), List.of(), SnapshotMode.AUTO);
	}

}
