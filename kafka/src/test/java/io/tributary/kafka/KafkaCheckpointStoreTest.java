package io.tributary.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint record reads back as written, with whether its table ended copied once; a record
 * without the field, as earlier releases wrote them, reads as not ended.
 */
class KafkaCheckpointStoreTest {

	private final KafkaCheckpointStore store = new KafkaCheckpointStore(null, "checkpoints", "default");

	@Test
	void anEndedCheckpointReadsBackEndedAndAStreamingOneNot() {
		TableCheckpoint ended = new TableCheckpoint(new TableId("shop", "orders"),
				new Destination.Topic("eu.shop.orders"), true, Position.parse("mysql-bin.000003:1234#1"), null,
				Instant.parse("2026-12-08T01:00:00Z"), true);
		assertThat(this.store.parse(this.store.format(ended))).usingRecursiveComparison().isEqualTo(ended);
		TableCheckpoint streaming = new TableCheckpoint(ended.source(), ended.target(), true, ended.position(), null,
				ended.updatedAt());
		assertThat(this.store.parse(this.store.format(streaming)).ended()).isFalse();
		assertThat(new String(this.store.format(streaming), StandardCharsets.UTF_8)).doesNotContain("ended");
	}

}
