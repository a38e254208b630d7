package io.tributary.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.tributary.name.Destination;
import io.tributary.name.TableId;

/**
 * Decides which source tables the rules of a pipeline take, and refuses what would be ambiguous:
 * a table taken by two rules, or by a rule while it is also listed on its own, and two tables
 * going to one destination. A refusal names the tables and the rules, and what to change.
 */
final class TableRules {

	private TableRules() {
	}

	/**
	 * Returns every table to replicate: those listed, in their order, then those the rules take,
	 * ordered by name.
	 * @param listed tables listed on their own
	 * @param rules the rules
	 * @param present the base tables the source has now
	 * @param reserved tables no rule may take: Tributary's own and, when source and target are one
	 * server, the targets (so that a rule never takes the copies it writes)
	 * @return the tables
	 * @throws IllegalArgumentException when the rules are ambiguous, as above
	 */
	static List<TableMapping> resolve(List<TableMapping> listed, List<TableRule> rules, Collection<TableId> present,
			Set<TableId> reserved) {
		Map<TableId, TableMapping> all = new LinkedHashMap<>();
		for (TableMapping mapping : listed) {
			all.put(mapping.source(), mapping);
		}
		List<TableId> candidates = new ArrayList<>(present);
		candidates.sort(Comparator.comparing((TableId id) -> id.schema().toLowerCase(Locale.ROOT))
			.thenComparing((id) -> id.table().toLowerCase(Locale.ROOT)));
		for (TableId table : candidates) {
			if (reserved.contains(table)) {
				continue;
			}
			TableRule taker = null;
			for (TableRule rule : rules) {
				if (!rule.takes(table)) {
					continue;
				}
				if (all.containsKey(table) && all.get(table).rule() == null) {
					throw new IllegalArgumentException("Table " + table + " is listed on its own and also taken by rule "
							+ describe(rule) + "; exclude it from the rule, or remove it from the list");
				}
				if (taker != null) {
					throw new IllegalArgumentException("Table " + table + " is taken by two rules, " + describe(taker)
							+ " and " + describe(rule) + "; exclude it from one of them");
				}
				taker = rule;
			}
			if (taker != null) {
				all.put(table, taker.map(table));
			}
		}
		refuseSharedDestinations(all.values());
		return List.copyOf(all.values());
	}

	/** Returns the destinations that are tables, which a rule must not take on a shared server. */
	static Set<TableId> targets(Collection<TableMapping> mappings) {
		Set<TableId> targets = new HashSet<>();
		for (TableMapping mapping : mappings) {
			if (mapping.destination() instanceof Destination.Table table) {
				targets.add(table.id());
			}
		}
		return targets;
	}

	private static void refuseSharedDestinations(Collection<TableMapping> mappings) {
		Map<Destination, TableMapping> taken = new HashMap<>();
		Map<String, TableMapping> slices = new HashMap<>();
		for (TableMapping mapping : mappings) {
			TableMapping earlier = taken.putIfAbsent(mapping.destination(), mapping);
			if (earlier != null && earlier.slice() != null && mapping.slice() != null) {
				refuseSameSlice(earlier, mapping);
			}
			if (mapping.slice() != null) {
				// One table per slice of a merged target.
				String slice = mapping.destination() + "/" + mapping.slice().value().toLowerCase(Locale.ROOT);
				TableMapping sameSlice = slices.putIfAbsent(slice, mapping);
				if (sameSlice != null) {
					refuseSameSlice(sameSlice, mapping);
				}
				if (earlier == null || earlier.slice() != null) {
					continue;
				}
			}
			if (earlier != null) {
				throw new IllegalArgumentException("Tables " + earlier.source() + " (" + origin(earlier) + ") and "
						+ mapping.source() + " (" + origin(mapping) + ") would both go to "
						+ mapping.destination().describe() + "; give each table a destination of its own, for "
						+ "example with a target that names {schema} as well as {table}");
			}
		}
	}

	/** Refuses two tables merged into one target that would share a slice, or name its column apart. */
	private static void refuseSameSlice(TableMapping earlier, TableMapping mapping) {
		if (!earlier.slice().column().equalsIgnoreCase(mapping.slice().column())) {
			throw new IllegalArgumentException("Tables " + earlier.source() + " (" + origin(earlier) + ") and "
					+ mapping.source() + " (" + origin(mapping) + ") are merged into " + mapping.destination().describe()
					+ " with different shard columns, " + earlier.slice().column() + " and " + mapping.slice().column()
					+ "; give them one shard column");
		}
		if (earlier.slice().value().equalsIgnoreCase(mapping.slice().value())) {
			throw new IllegalArgumentException("Tables " + earlier.source() + " and " + mapping.source() + " would "
					+ "both write the rows of " + mapping.destination().describe() + " whose "
					+ mapping.slice().column() + " is '" + mapping.slice().value() + "'; tell the shards apart by "
					+ "schema and table (merge value schema-table)");
		}
	}

	private static String origin(TableMapping mapping) {
		return (mapping.rule() != null) ? "rule " + mapping.rule() : "listed on its own";
	}

	private static String describe(TableRule rule) {
		return rule.name() + " (" + rule.include() + ")";
	}

}
