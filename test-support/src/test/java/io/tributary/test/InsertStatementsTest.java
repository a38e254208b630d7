package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InsertStatementsTest {

	@Test
	void singleStatementHoldsEveryRowInOrder() {
		assertThat(InsertStatements.single("t", 1, 3, (i) -> i + ", 'r" + i + "'"))
				.isEqualTo("INSERT INTO t VALUES (1, 'r1'), (2, 'r2'), (3, 'r3')");
	}

	@Test
	void batchesSplitAfterAThousandRowsAndEndAtTheLastRow() {
		String[] statements = InsertStatements.batches("t", -5, 2_100, Long::toString);
		assertThat(statements).hasSize(3);
		assertThat(statements[0]).startsWith("INSERT INTO t VALUES (-5), (-4)").endsWith(", (994)");
		assertThat(statements[1]).startsWith("INSERT INTO t VALUES (995), ").endsWith(", (1994)");
		assertThat(statements[2]).startsWith("INSERT INTO t VALUES (1995), ").endsWith(", (2100)");
	}

	@Test
	void anEmptyRangeHasNoStatements() {
		assertThat(InsertStatements.batches("t", 5, 4, Long::toString)).isEmpty();
	}
}
