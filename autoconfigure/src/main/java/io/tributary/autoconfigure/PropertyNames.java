package io.tributary.autoconfigure;

import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;

/**
 * Names each {@link Setting} by the {@code cdc.*} property that sets it for one configured source,
 * so that the engine's messages about that source's pipeline name what the application wrote:
 * {@code cdc.source.server-id} and {@code cdc.tables} for {@code cdc.source},
 * {@code cdc.sources.<name>.server-id} and {@code cdc.sources.<name>.tables} for an entry of
 * {@code cdc.sources}. A setting all pipelines share has one property whatever the source.
 *
 * @param prefix prefix of the source's connection properties: {@code cdc.source} or
 * {@code cdc.sources.<name>}
 * @param tables the property listing the source's tables
 */
record PropertyNames(String prefix, String tables) implements SettingNames {

	@Override
	public String of(Setting setting) {
		return switch (setting) {
			case TABLES -> this.tables;
			case TABLE_TARGET -> this.tables + "[n].target";
			case TABLE_KEY -> this.tables + "[n].key";
			case SERVER_ID -> this.prefix + ".server-id";
			case HEARTBEAT_INTERVAL -> this.prefix + ".heartbeat-interval";
			case SSL_MODE -> this.prefix + ".ssl-mode";
			case SSL_CA -> this.prefix + ".ssl-ca";
			case INVALID_CHECKPOINT_BEHAVIOR -> "cdc.checkpoint.invalid-behavior";
			case CHECKSUM_FIX_DIFFERENCES -> "cdc.checksum.fix-differences";
			// The target is cdc.target.url's, or the application's DataSource's where that is not set.
			case TARGET_URL -> "cdc.target.url (or spring.datasource.url)";
		};
	}

}
