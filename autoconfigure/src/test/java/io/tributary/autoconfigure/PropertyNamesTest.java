package io.tributary.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's messages about a pipeline name the {@code cdc.*} properties of its source: those of
 * {@code cdc.source} and {@code cdc.tables}, or of its entry under {@code cdc.sources}.
 */
class PropertyNamesTest {

	private static final String TARGET_URL = "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica";

	@Test
	void theSinglePipelineNamesTheSettingsByCdcSourceAndCdcTables() {
		TributaryProperties properties = bind(TARGET_URL, "cdc.source.host=127.0.0.1", "cdc.source.username=repl",
				"cdc.tables[0].source=shop.orders");
		SettingNames names = settingNames(properties, ConfiguredSource.single(properties));
		assertThat(names.of(Setting.TABLES)).isEqualTo("cdc.tables");
		assertThat(names.of(Setting.TABLE_TARGET)).isEqualTo("cdc.tables[n].target");
		assertThat(names.of(Setting.TABLE_KEY)).isEqualTo("cdc.tables[n].key");
		assertThat(names.of(Setting.SERVER_ID)).isEqualTo("cdc.source.server-id");
		assertThat(names.of(Setting.HEARTBEAT_INTERVAL)).isEqualTo("cdc.source.heartbeat-interval");
		assertThat(names.of(Setting.SSL_MODE)).isEqualTo("cdc.source.ssl-mode");
		assertThat(names.of(Setting.SSL_CA)).isEqualTo("cdc.source.ssl-ca");
		assertThat(names.of(Setting.INVALID_CHECKPOINT_BEHAVIOR)).isEqualTo("cdc.checkpoint.invalid-behavior");
		assertThat(names.of(Setting.CHECKSUM_FIX_DIFFERENCES)).isEqualTo("cdc.checksum.fix-differences");
		assertThat(names.of(Setting.TARGET_URL)).isEqualTo("cdc.target.url (or spring.datasource.url)");
	}

	@Test
	void eachPipelineOfSeveralSourcesNamesTheSettingsOfItsOwnEntry() {
		TributaryProperties properties = bind(TARGET_URL, "cdc.sources.eu.host=127.0.0.1",
				"cdc.sources.eu.username=repl", "cdc.sources.eu.tables[0].source=shop.orders",
				"cdc.sources.us.host=127.0.0.2", "cdc.sources.us.username=repl", "cdc.sources.us.pipeline=americas",
				"cdc.sources.us.tables[0].source=shop.items");
		SettingNames eu = settingNames(properties, ConfiguredSource.named(properties, "eu"));
		assertThat(eu.of(Setting.SERVER_ID)).isEqualTo("cdc.sources.eu.server-id");
		assertThat(eu.of(Setting.TABLES)).isEqualTo("cdc.sources.eu.tables");
		assertThat(eu.of(Setting.TABLE_KEY)).isEqualTo("cdc.sources.eu.tables[n].key");
		assertThat(eu.of(Setting.SSL_CA)).isEqualTo("cdc.sources.eu.ssl-ca");
		// Named by its entry, not by its pipeline.
		SettingNames us = settingNames(properties, ConfiguredSource.named(properties, "us"));
		assertThat(us.of(Setting.SERVER_ID)).isEqualTo("cdc.sources.us.server-id");
		assertThat(us.of(Setting.TABLE_TARGET)).isEqualTo("cdc.sources.us.tables[n].target");
		// Shared by every pipeline.
		assertThat(us.of(Setting.INVALID_CHECKPOINT_BEHAVIOR)).isEqualTo(eu.of(Setting.INVALID_CHECKPOINT_BEHAVIOR))
			.isEqualTo("cdc.checkpoint.invalid-behavior");
	}

	@Test
	void aMessageOfTheEngineNamesThePropertyOfItsSource(@TempDir Path directory) throws IOException {
		Path empty = Files.writeString(directory.resolve("empty.pem"), "");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues(TARGET_URL, "cdc.sources.eu.host=127.0.0.1", "cdc.sources.eu.port=1",
					"cdc.sources.eu.username=repl", "cdc.sources.eu.tables[0].source=shop.orders",
					"cdc.sources.eu.ssl-mode=verify-ca", "cdc.sources.eu.ssl-ca=" + empty)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("The source's CA file " + empty + " (cdc.sources.eu.ssl-ca) holds no certificate"));
	}

	private static SettingNames settingNames(TributaryProperties properties, ConfiguredSource configured) {
		return ConfiguredPipelines.settings(properties, configured,
				ConfiguredPipelines.sourceSettings(properties, configured), "replica", null).settingNames();
	}

	private static TributaryProperties bind(String... pairs) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String pair : pairs) {
			int equals = pair.indexOf('=');
			values.put(pair.substring(0, equals), pair.substring(equals + 1));
		}
		return new Binder(new MapConfigurationPropertySource(values)).bind("cdc", TributaryProperties.class).get();
	}

}
