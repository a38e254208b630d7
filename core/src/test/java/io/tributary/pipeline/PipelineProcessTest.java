package io.tributary.pipeline;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.source.SourceSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

import static org.assertj.core.api.Assertions.assertThat;

/** The child pipeline's command line and status lines carry what the parent needs, unchanged. */
class PipelineProcessTest {

	@Test
	void settingsSurviveTheCommandLine() {
		PipelineSettings settings = PipelineSettings
			.builder(new SourceSettings("127.0.0.1", 3307, "repl", "p=w|d", 4242, Duration.ofSeconds(7),
					Duration.ofMillis(300)),
					List.of(new TableMapping(new TableId("shop", "orders"), new TableId("copy", "orders")),
							new TableMapping(new TableId("shop", "lines"), new TableId("copy", "lines"),
									List.of("order_id", "line_no"), SnapshotMode.NEVER)),
					new TableId("copy", "tributary_checkpoint"))
			.name("orders-pipeline")
			.flushInterval(Duration.ofMillis(150))
			.checkpointInterval(Duration.ofMillis(700))
			.copy(new CopySizing(3, 400, 100, 9_000, Duration.ofMillis(250)))
			.batchRows(777)
			.batchBytes(123_456)
			.invalidCheckpointBehavior(InvalidCheckpointBehavior.RESTART)
			.bufferSoftLimitBytes(1_000_000)
			.flushMaxChanges(5_000)
			.applyConcurrency(2)
			.checksum(new ChecksumSettings(false, true, 321))
			.build();
		assertThat(PipelineProcess.settings(options(settings))).isEqualTo(settings);
		assertThat(options(settings)).doesNotContainKey("ha");

		PipelineSettings withHa = settings.withHa(HaSettings.enabled(Duration.ofMillis(2_000), Duration.ofMillis(200)));
		assertThat(options(withHa)).containsEntry("ha", "2000,200");
		assertThat(PipelineProcess.settings(options(withHa))).isEqualTo(withHa);
	}

	private static Map<String, String> options(PipelineSettings settings) {
		Map<String, String> options = new LinkedHashMap<>();
		for (String argument : PipelineProcess.arguments(settings)) {
			int equals = argument.indexOf('=');
			options.put(argument.substring(0, equals), argument.substring(equals + 1));
		}
		return options;
	}

	@Test
	void haSettingsSurviveTheCommandLineAndTheirAbsenceMeansOff() {
		PipelineSettings single = PipelineSettings.of(
				new SourceSettings("127.0.0.1", 3307, "repl", "pw", 4242, Duration.ofSeconds(7), Duration.ofMillis(300)),
				List.of(new TableMapping(new TableId("shop", "orders"), new TableId("copy", "orders"))),
				new TableId("copy", "tributary_checkpoint"));
		PipelineSettings replicated = single.withHa(HaSettings.enabled(Duration.ofMillis(4_500), Duration.ofMillis(250)));

		assertThat(PipelineProcess.arguments(replicated)).contains("ha=4500,250");
		assertThat(PipelineProcess.arguments(single)).noneMatch((argument) -> argument.startsWith("ha="));
		assertThat(PipelineProcess.settings(options(replicated))).isEqualTo(replicated);
		assertThat(PipelineProcess.settings(options(single)).ha()).isEqualTo(HaSettings.OFF);
	}

	@Test
	void sampleLineReadsBackAsPrinted() {
		PipelineStatus status = new PipelineStatus("default", PipelineStatus.State.RUNNING, null, null, 1_500, null,
				List.of(), null, null, false, null, new PipelineStatus.Leadership("h/1/a", true, 7, "h/1/a"));

		assertThat(ChildSample.parse(ChildSample.format(48_000_000, 33, status)))
			.isEqualTo(new ChildSample(48_000_000, 33, 1_500, true, 7, 0));
	}

	@Test
	void statusLineReadsBackAsPrinted() {
		TableStatus.Checksum checksum = new TableStatus.Checksum(TableStatus.Checksum.State.RUNNING, 9, 4, 2, 3, 900,
				null, null, null);
		TableStatus orders = TableStatus.builder("shop.orders", "copy.orders", TableStatus.Phase.STREAMING)
			.rowsCopied(20_000)
			.rowsEstimated(20_000)
			.chunksCopied(10)
			.snapshotDone(true)
			.bufferedKeys(5)
			.bufferedBytes(500)
			.keysAdded(100)
			.changesApplied(1_234)
			.flushes(new TableStatus.Flushes(17, 1, 0, 0, 0, 0))
			.checksum(checksum)
			.events(new TableStatus.Events(10, 20, 3, 0))
			.build();
		PipelineStatus status = new PipelineStatus("default", PipelineStatus.State.RUNNING, null, null, 0, 4_096L,
				List.of(orders), null, null, false, null);

		ChildStatus line = ChildStatus.parse(ChildStatus.format(status, true, 42, 7, 1));

		assertThat(line).isEqualTo(new ChildStatus(PipelineStatus.State.RUNNING, true, 42, 7, 1, 4_096,
				Map.of("shop.orders", new ChildStatus.Table(TableStatus.Phase.STREAMING, 20_000, 10, true,
						TableStatus.Checksum.State.RUNNING, 4, 3, 1_234, 17, 33))));
		assertThat(line.table("orders").flushesOk()).isEqualTo(17);
		assertThat(line.leader()).isFalse();

		PipelineStatus leading = new PipelineStatus("default", PipelineStatus.State.RUNNING, null, null, 0, 4_096L,
				List.of(orders), null, null, false, null, new PipelineStatus.Leadership("host/1/ab", true, 7,
						"host/1/ab"));
		ChildStatus leader = ChildStatus.parse(ChildStatus.format(leading, false, 0, 0, 0));
		assertThat(leader.leading()).isTrue();
		assertThat(leader.epoch()).isEqualTo(7);
	}

}
