package io.tributary.checkpoint;

import org.junit.jupiter.api.Test;

import io.tributary.apply.TableSink;
import io.tributary.name.TableId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Target names read back from the checkpoint table: a table's, and a sink's label, whose name may
 * hold dots of its own (a Kafka topic such as {@code eu.shop.orders}).
 */
class JdbcCheckpointStoreTest {

	@Test
	void aTargetTableReadsBackAsWritten() {
		TableId target = JdbcCheckpointStore.storedTarget(new TableId("replica", "orders").toString());
		assertThat(target.schema()).isEqualTo("replica");
		assertThat(target.table()).isEqualTo("orders");
	}

	@Test
	void aDottedTopicReadsBackAsWritten() {
		TableId label = new TableId("(kafka)", "eu.shop.orders");
		TableId target = JdbcCheckpointStore.storedTarget(TableSink.describe(label));
		assertThat(TableSink.describe(label)).isEqualTo("(kafka).eu.shop.orders");
		assertThat(target.schema()).isEqualTo("(kafka)");
		assertThat(target.table()).isEqualTo("eu.shop.orders");
	}

	@Test
	void aQuotedTargetTableReadsBackAsWritten() {
		for (TableId written : new TableId[] { new TableId("odd.schema", "special\"[`]$'"),
				new TableId("(x.y)", "t"), new TableId("(k)", "a`b") }) {
			TableId target = JdbcCheckpointStore.storedTarget(TableSink.describe(written));
			assertThat(target.schema()).isEqualTo(written.schema());
			assertThat(target.table()).isEqualTo(written.table());
		}
	}

	@Test
	void aNameWithoutSchemaIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> JdbcCheckpointStore.storedTarget("orders"))
			.withMessageContaining("not of the form schema.table");
	}

}
