package io.tributary.bench;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.tributary.name.TableId;

/**
 * The kafka scenario's check that its figure counts real records: the topic is read from its
 * beginning to its end, as a consumer rebuilding the table reads it, and must hold exactly the
 * records the broker acknowledged, keyed by exactly the ids the backlog touched, with each key's
 * last record carrying the source's row as it is now (its {@code k}, which every update of the
 * backlog changed), the source table's name and a binlog position.
 */
final class PublishedTopic {

	private static final ObjectMapper JSON = new ObjectMapper();

	private PublishedTopic() {
	}

	/**
	 * Reads {@code k} of every row of a sysbench-shaped table with ids 1 to {@code rows}.
	 * @return {@code k} by id
	 */
	static int[] sourceValues(DataSource source, TableId table, int rows) throws SQLException {
		int[] values = new int[rows + 1];
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT id, k FROM " + table.quoted())) {
			while (rs.next()) {
				values[rs.getInt(1)] = rs.getInt(2);
			}
		}
		return values;
	}

	/**
	 * Reads the topic and checks it.
	 * @param expectedRecords records the broker acknowledged to the sink
	 * @param touched the ids the backlog updated
	 * @param sourceK {@code k} of each source row now, by id
	 * @param table the source table's name, as the records carry it
	 * @return what was checked, for the results
	 * @throws IllegalStateException naming the first difference
	 */
	static String check(String bootstrapServers, String topic, long expectedRecords, BitSet touched, int[] sourceK,
			String table) throws Exception {
		Map<String, Object> properties = new HashMap<>();
		properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
		long started = System.nanoTime();
		long records = 0;
		BitSet seen = new BitSet(sourceK.length);
		int[] lastK = new int[sourceK.length];
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
			long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
			while (partitions.stream().anyMatch((p) -> consumer.position(p) < end.get(p))) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Topic " + topic + " not read to its end within 10 minutes");
				}
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
					records++;
					int id = id(record.key());
					if (record.value() == null) {
						throw new IllegalStateException("Tombstone for id " + id + " in " + topic + "; the backlog "
								+ "deleted nothing");
					}
					JsonNode value = JSON.readTree(record.value());
					if (!table.equals(value.path("table").asText()) || value.path("position").isNull()) {
						throw new IllegalStateException("Record of id " + id + " in " + topic + " is not a streamed "
								+ "change of " + table + ": " + new String(record.value(), StandardCharsets.UTF_8));
					}
					seen.set(id);
					lastK[id] = value.path("row").path("k").asInt();
				}
			}
		}
		if (records != expectedRecords) {
			throw new IllegalStateException(String.format("Topic %s holds %,d records, the broker acknowledged %,d",
					topic, records, expectedRecords));
		}
		if (!seen.equals(touched)) {
			BitSet missing = (BitSet) touched.clone();
			missing.andNot(seen);
			BitSet extra = (BitSet) seen.clone();
			extra.andNot(touched);
			throw new IllegalStateException(String.format("Keys of topic %s differ from the ids the backlog touched: "
					+ "%,d missing (first %d), %,d not touched (first %d)", topic, missing.cardinality(),
					missing.nextSetBit(0), extra.cardinality(), extra.nextSetBit(0)));
		}
		for (int id = touched.nextSetBit(0); id >= 0; id = touched.nextSetBit(id + 1)) {
			if (lastK[id] != sourceK[id]) {
				throw new IllegalStateException(String.format("Last record of id %d in %s has k = %d, the source %d",
						id, topic, lastK[id], sourceK[id]));
			}
		}
		return String.format("%,d records read back in %.1f s, the %,d acknowledged; keys = the %,d ids touched; each "
				+ "key's last k = the source's", records, (System.nanoTime() - started) / 1e9, expectedRecords,
				touched.cardinality());
	}

	/** The id of a record key {@code [42]}. */
	private static int id(byte[] key) {
		String text = new String(key, StandardCharsets.UTF_8);
		if (!text.startsWith("[") || !text.endsWith("]")) {
			throw new IllegalStateException("Unexpected record key " + text);
		}
		return Integer.parseInt(text.substring(1, text.length() - 1));
	}

}
