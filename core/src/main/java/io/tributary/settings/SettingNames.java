package io.tributary.settings;

/**
 * Names each {@link Setting} the way the reader of a message configured it. The engine's messages
 * ask their pipeline's names ({@code PipelineSettings.settingNames()}) instead of spelling a
 * setting, so that a caller of the Java API reads {@code SourceSettings.serverId} and a Spring Boot
 * application reads {@code cdc.source.server-id}.
 *
 * <p>An implementation names every setting, with a name that is never {@code null}.
 */
@FunctionalInterface
public interface SettingNames {

	/** Names each setting as the engine's Java API does ({@link Setting#engineName()}); the default. */
	SettingNames ENGINE = Setting::engineName;

	/**
	 * Returns the name of a setting, as a message should print it.
	 * @param setting the setting
	 * @return its name
	 */
	String of(Setting setting);

}
