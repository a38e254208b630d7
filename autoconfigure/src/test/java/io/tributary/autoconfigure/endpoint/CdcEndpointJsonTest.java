package io.tributary.autoconfigure.endpoint;

import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.status.PipelineStatus;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON of {@code /actuator/cdc} is public: written by the actuator's own mapper, a status has
 * the fields and the shape the files next to this test show, which docs/overview.md describes.
 */
class CdcEndpointJsonTest {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonEndpointAutoConfiguration.class));

	@Test
	void theOverviewHasEveryFieldOfATableInItsOwnObject() {
		this.runner.run((context) -> {
			JsonMapper json = context.getBean(EndpointJsonMapper.class).get();
			assertThat(written(json, new CdcEndpoint.Overview(List.of(pipeline(everyField())))))
				.isEqualTo(expected(json, "overview.json"));
		});
	}

	@Test
	void aQuietTableLeavesOutWhatItDoesNotHave() {
		this.runner.run((context) -> {
			JsonMapper json = context.getBean(EndpointJsonMapper.class).get();
			assertThat(written(json, new CdcEndpoint.ActionOutcome("pause", "main", true, null, quiet())))
				.isEqualTo(expected(json, "quiet-table-action.json"));
		});
	}

	@Test
	void everyCounterOfAGroupIsAFieldOfItsOwn() {
		int fields = 0;
		for (RecordComponent component : TableStatus.class.getRecordComponents()) {
			boolean group = component.getType().getEnclosingClass() == TableStatus.class
					&& List.of("copy", "buffer", "flushing").contains(component.getName());
			fields += group ? component.getType().getRecordComponents().length : 1;
		}
		// The destination is two fields: its text and its kind.
		assertThat(StatusJson.table(quiet())).as("one field per counter, no two with one name").hasSize(fields + 1);
	}

	/** The body as written, read back: fields compare by name, whatever their order. */
	private static JsonNode written(JsonMapper json, Object body) {
		return json.readTree(json.writeValueAsString(body));
	}

	private static JsonNode expected(JsonMapper json, String file) throws Exception {
		try (InputStream in = CdcEndpointJsonTest.class.getResourceAsStream(file)) {
			return json.readTree(in);
		}
	}

	private static PipelineStatus pipeline(TableStatus... tables) {
		return new PipelineStatus("main", PipelineStatus.State.RUNNING,
				new PipelineStatus.Source("db", 3306, 4242, "MYSQL", "8.0.31", "ON", true, null, 3, 1_000, null),
				new PipelineStatus.Positions("mysql-bin.000003:1200", "mysql-bin.000003:900", "mysql-bin.000003:1500"),
				1_500, 8_192L, List.of(tables), NOW.minusSeconds(3_600), null, true,
				new PipelineStatus.Counters(10, 0, 0, 5, 0), null,
				new PipelineStatus.Buffers(512L * 1024 * 1024, 1_234_567, 3, 250));
	}

	private static TableStatus everyField() {
		return TableStatus.builder("shop.orders", "replica.orders", Phase.SNAPSHOTTING)
			.copy(new TableStatus.Copy(400_001, 1_000_002, 403, 12_345.5, 49L, true))
			.buffer(new TableStatus.Buffer(12_345, 1_234_567, 64L * 1024 * 1024, 9_876_543, 17, 4, 2, 1_500, 1))
			.flushing(new TableStatus.Flushing(5_000, false, "mysql-bin.000003:900",
					new TableStatus.Flush(NOW.minusSeconds(2), 1_234, 56, "ok"),
					new TableStatus.Flushes(55, 2, 123_456, 789, 3_000_000_000L, 250_000_000L)))
			.apply(new TableStatus.Apply(3_456, 7, 1_111_111, 2_222, 5, 44, 3, 8))
			.checksum(new TableStatus.Checksum(TableStatus.Checksum.State.DONE, 12, 5, 1, 1, 40_000,
					NOW.minusSeconds(60), NOW.minusSeconds(50), null))
			.lastAction(new TableStatus.Action("pause", NOW.minusSeconds(90), "paused at mysql-bin.000003:800 (by alice)"))
			.events(new TableStatus.Events(101, 202, 303, 4))
			.lastError("Data too long for column 'v'")
			.sink(new SinkStatus("kafka", "shop.orders", 1_234_567, 3, Map.of("0", 410_001L)))
			.build();
	}

	private static TableStatus quiet() {
		return TableStatus.builder("shop.items", "replica.items", Phase.STREAMING).allChangesFlushed(true).build();
	}

}
