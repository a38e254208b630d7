package io.tributary.checkpoint;

import org.junit.jupiter.api.Test;

import io.tributary.name.Destination;
import io.tributary.name.TableId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Destinations read back from the checkpoint table: a table's, quoted where needed, and a sink's,
 * whose name may hold dots of its own (a Kafka topic such as {@code eu.shop.orders}), including
 * the text earlier releases wrote.
 */
class JdbcCheckpointStoreTest {

	@Test
	void aTargetTableReadsBackAsWritten() {
		Destination target = JdbcCheckpointStore.storedTarget(new TableId("replica", "orders").toString());
		assertThat(target).isEqualTo(new Destination.Table(new TableId("replica", "orders")));
	}

	@Test
	void aDottedTopicReadsBackAsWritten() {
		Destination topic = new Destination.Topic("eu.shop.orders");
		assertThat(topic.toString()).isEqualTo("(kafka).eu.shop.orders");
		assertThat(JdbcCheckpointStore.storedTarget(topic.toString())).isEqualTo(topic);
	}

	@Test
	void aListenerReadsBackAsWritten() {
		Destination listener = Destination.Listener.of(new TableId("shop", "orders"));
		assertThat(listener.toString()).isEqualTo("(listener).orders");
		assertThat(JdbcCheckpointStore.storedTarget("(listener).orders")).isEqualTo(listener);
	}

	@Test
	void aQuotedTargetTableReadsBackAsWritten() {
		for (TableId written : new TableId[] { new TableId("odd.schema", "special\"[`]$'"),
				new TableId("(x.y)", "t"), new TableId("(k)", "a`b"), new TableId("(kafka)", "t"),
				new TableId("(listener)", "a.b") }) {
			Destination target = JdbcCheckpointStore.storedTarget(new Destination.Table(written).toString());
			assertThat(target).isInstanceOf(Destination.Table.class);
			TableId read = ((Destination.Table) target).id();
			assertThat(read.schema()).isEqualTo(written.schema());
			assertThat(read.table()).isEqualTo(written.table());
		}
	}

	@Test
	void aTableWhoseSchemaLooksLikeAnUnknownKindReadsAsATable() {
		// Written unquoted by earlier releases: read as the table it names.
		assertThat(JdbcCheckpointStore.storedTarget("(x).t")).isEqualTo(new Destination.Table(new TableId("(x)", "t")));
	}

	@Test
	void aNameWithoutSchemaIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> JdbcCheckpointStore.storedTarget("orders"))
			.withMessageContaining("not of the form schema.table");
	}

}
