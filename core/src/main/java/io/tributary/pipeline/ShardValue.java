package io.tributary.pipeline;

import io.tributary.name.TableId;

/**
 * What a shard's slice of a merged target holds in its slice column: the name of the source
 * table, of its schema, or both.
 */
public enum ShardValue {

	/** The source table's name, as in {@code orders_07}: shards in one schema. */
	TABLE,

	/** The source table's schema, as in {@code shop_07}: one table in each of several schemas. */
	SCHEMA,

	/** Both, as in {@code shop_07.orders}: shards spread over schemas and tables. */
	SCHEMA_TABLE;

	/** Returns the value of a source table. */
	String of(TableId table) {
		return switch (this) {
			case TABLE -> table.table();
			case SCHEMA -> table.schema();
			case SCHEMA_TABLE -> table.schema() + "." + table.table();
		};
	}

}
