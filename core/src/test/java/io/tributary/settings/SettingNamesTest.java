package io.tributary.settings;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.PipelineSettingsBuilder;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The engine names each setting after the part of its API that sets it, and a pipeline's messages
 * name settings with the names its settings carry.
 */
class SettingNamesTest {

	/** The records whose components the engine names point to. */
	private static final Map<String, Class<? extends Record>> RECORDS = Map.of("PipelineSettings",
			PipelineSettings.class, "TableMapping", TableMapping.class, "SourceSettings", SourceSettings.class,
			"ChecksumSettings", ChecksumSettings.class);

	private static final SourceSettings SOURCE = new SourceSettings("db", 3306, "repl", "secret", 4242, null, null);

	private static final TableMapping ORDERS = new TableMapping(new TableId("shop", "orders"),
			new TableId("replica", "orders"));

	@Test
	void everyEngineNameIsARecordComponentOfTheApi() {
		for (Setting setting : Setting.values()) {
			if (setting == Setting.TARGET_URL) {
				// Not a setting of the engine: the target DataSource is handed to the pipeline as it is.
				assertThat(setting.engineName()).contains("target DataSource");
				continue;
			}
			String[] parts = setting.engineName().split("\\.");
			assertThat(parts).as(setting.name()).hasSize(2);
			assertThat(RECORDS).as(setting.name()).containsKey(parts[0]);
			assertThat(Arrays.stream(RECORDS.get(parts[0]).getRecordComponents()).map(RecordComponent::getName))
				.as(setting.name())
				.contains(parts[1]);
		}
	}

	@Test
	void settingsNameTheirSettingsAsTheEngineDoesUnlessToldOtherwise() {
		PipelineSettings settings = PipelineSettings.of(SOURCE, List.of(ORDERS), new TableId("replica", "checkpoint"));
		assertThat(settings.settingNames()).isSameAs(SettingNames.ENGINE);
		assertThat(settings.settingNames().of(Setting.SERVER_ID)).isEqualTo("SourceSettings.serverId");
		SettingNames properties = (setting) -> "app." + setting.name().toLowerCase(Locale.ROOT);
		PipelineSettings named = settings.toBuilder().settingNames(properties).build();
		assertThat(named.settingNames()).isSameAs(properties);
		assertThat(named.withFlushInterval(Duration.ofSeconds(1)).settingNames()).isSameAs(properties);
	}

	@Test
	void aMessageNamesTheEngineSettingByDefaultAndTheGivenNameOtherwise() {
		PipelineSettingsBuilder twice = PipelineSettings.builder(SOURCE, List.of(ORDERS, ORDERS),
				new TableId("replica", "checkpoint"));
		assertThatIllegalArgumentException().isThrownBy(twice::build)
			.withMessage("A source table is listed twice in PipelineSettings.tables");
		SettingNames properties = (setting) -> "cdc.sources.eu." + setting.name().toLowerCase(Locale.ROOT);
		assertThatIllegalArgumentException().isThrownBy(() -> twice.settingNames(properties).build())
			.withMessage("A source table is listed twice in cdc.sources.eu.tables");
	}

	@Test
	void sourceSettingsNameTheirOwnComponents() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SourceSettings("db", 3306, "repl", "secret", 4242, null, Duration.ZERO))
			.withMessageEndingWith("(SourceSettings.heartbeatInterval)");
	}

}
