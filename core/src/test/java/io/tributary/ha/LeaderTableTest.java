package io.tributary.ha;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;

import static org.assertj.core.api.Assertions.assertThat;

/** Names of the leader table and the leader lock, which every instance must derive alike. */
class LeaderTableTest {

	@Test
	void theLeaderTableSitsNextToTheCheckpointTable() {
		assertThat(LeaderTable.tableFor(new TableId("replica", "tributary_checkpoint")))
			.isEqualTo(new TableId("replica", "tributary_checkpoint_leader"));
	}

	@Test
	void aLongCheckpointTableNameIsShortenedToFitAndStaysDistinct() {
		TableId first = LeaderTable.tableFor(new TableId("replica", "c".repeat(60) + "_one"));
		TableId second = LeaderTable.tableFor(new TableId("replica", "c".repeat(60) + "_two"));
		assertThat(first.table()).hasSize(LeaderTable.MAX_NAME).endsWith("_leader");
		assertThat(first).isNotEqualTo(second);
	}

	@Test
	void theLockIsNamedAfterThePipelineAndTheCheckpointTable() {
		assertThat(LeaderTable.lockName(new TableId("replica", "tributary_checkpoint"), "orders"))
			.isEqualTo("tributary:orders@replica.tributary_checkpoint");
		assertThat(LeaderTable.lockName(new TableId("replica", "tributary_checkpoint"), "orders"))
			.isNotEqualTo(LeaderTable.lockName(new TableId("other", "tributary_checkpoint"), "orders"));
	}

	@Test
	void aLongLockNameIsShortenedToFitAndStaysDistinct() {
		TableId table = new TableId("replica", "tributary_checkpoint");
		String first = LeaderTable.lockName(table, "p".repeat(60) + "1");
		String second = LeaderTable.lockName(table, "p".repeat(60) + "2");
		assertThat(first).hasSize(LeaderTable.MAX_NAME).startsWith("tributary:ppp");
		assertThat(first).isNotEqualTo(second).isEqualTo(LeaderTable.lockName(table, "p".repeat(60) + "1"));
	}

}
