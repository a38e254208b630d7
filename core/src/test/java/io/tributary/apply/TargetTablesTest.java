package io.tributary.apply;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;

import static org.assertj.core.api.Assertions.assertThat;

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

}
