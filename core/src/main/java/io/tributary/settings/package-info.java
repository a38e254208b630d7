/**
 * Names of the settings the engine's messages point to: {@link io.tributary.settings.Setting}, the
 * settings a message may tell its reader to change, and {@link io.tributary.settings.SettingNames},
 * which names them for whoever configured the engine.
 *
 * <p>A message never spells a setting's name itself; it asks the {@code SettingNames} of its
 * pipeline ({@code PipelineSettings.settingNames()}). By default those are the names of the
 * engine's Java API ({@link io.tributary.settings.SettingNames#ENGINE}, such as
 * {@code SourceSettings.serverId}), which is what a caller who built the settings in Java set; a
 * layer that builds the settings from configuration of its own, such as the Spring Boot
 * properties, supplies names of that configuration instead.
 *
 * <p>It depends on no other package of the engine, so that every package can name settings.
 * Invariants: each setting's engine name is declared once, on its constant, and is the record
 * component or argument that sets it; a {@code SettingNames} names every setting, never with
 * {@code null}.
 */
package io.tributary.settings;
