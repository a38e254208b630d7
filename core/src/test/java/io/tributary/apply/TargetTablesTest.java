package io.tributary.apply;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetTablesTest {

	@Test
	void rewritesNameAndDropsForeignKeysAndCounter() {
		String source = """
				CREATE TABLE `order_items` (
				  `order_id` bigint(20) NOT NULL,
				  `line` int(11) NOT NULL,
				  PRIMARY KEY (`order_id`,`line`),
				  CONSTRAINT `fk_order` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`)
				) ENGINE=InnoDB AUTO_INCREMENT=17 DEFAULT CHARSET=utf8mb4""";
		String ddl = TargetTables.targetDefinition(source, new TableId("replica", "order_items"));
		assertThat(ddl).startsWith("CREATE TABLE IF NOT EXISTS `replica`.`order_items` (")
			.contains("PRIMARY KEY (`order_id`,`line`)\n)")
			.doesNotContain("FOREIGN KEY")
			.doesNotContain("AUTO_INCREMENT=17");
	}

	@Test
	void aSliceColumnFollowsTheSourcesAndLeadsThePrimaryAndUniqueKeys() {
		String source = """
				CREATE TABLE `orders_07` (
				  `id` bigint NOT NULL AUTO_INCREMENT,
				  `code` varchar(20) DEFAULT NULL,
				  `note` varchar(200) DEFAULT NULL,
				  PRIMARY KEY (`id`),
				  UNIQUE KEY `uk code` (`code`),
				  KEY `ix_note` (`note`)
				) ENGINE=InnoDB AUTO_INCREMENT=401 DEFAULT CHARSET=utf8mb4""";
		String ddl = TargetTables.targetDefinition(source, new TableId("replica", "orders"),
				new TargetSlice("shard", "orders_07"));
		assertThat(ddl).isEqualTo("""
				CREATE TABLE IF NOT EXISTS `replica`.`orders` (
				  `id` bigint NOT NULL,
				  `code` varchar(20) DEFAULT NULL,
				  `note` varchar(200) DEFAULT NULL,
				  `shard` VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
				  PRIMARY KEY (`shard`, `id`),
				  UNIQUE KEY `uk code` (`shard`, `code`),
				  KEY `ix_note` (`note`)
				) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""");
	}

	@Test
	void aSliceIsWrittenAsALiteralThatReadsTheSameUnderEverySqlMode() {
		assertThat(new TargetSlice("shard", "orders_07").predicate()).isEqualTo("`shard` = 'orders_07'");
		assertThatThrownBy(() -> new TargetSlice("shard", "it's"))
			.hasMessageContaining("holds a quote or a backslash");
	}

}
