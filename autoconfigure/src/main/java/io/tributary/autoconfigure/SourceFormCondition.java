package io.tributary.autoconfigure;

import java.util.Map;
import java.util.Set;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Which of the two forms configures the sources: several under {@code cdc.sources.<name>}, or one
 * under {@code cdc.source} with {@code cdc.tables}.
 */
abstract class SourceFormCondition extends SpringBootCondition {

	/**
	 * Returns the names under {@code cdc.sources}, in the order of the configuration. Bound as
	 * nested maps, so a mistyped value inside an entry does not fail here but where the entry
	 * is bound to its type, which names it.
	 */
	static Set<String> sourceNames(Environment environment) {
		return Binder.get(environment)
			.bind("cdc.sources", Bindable.mapOf(String.class, Object.class))
			.map(Map::keySet)
			.orElse(Set.of());
	}

	/** Matches when {@code cdc.sources} names at least one source and {@code several}, or none and not. */
	private static ConditionOutcome outcome(ConditionContext context, boolean several) {
		Set<String> names = sourceNames(context.getEnvironment());
		String found = names.isEmpty() ? "cdc.sources is empty" : "cdc.sources names " + names;
		return (names.isEmpty() != several) ? ConditionOutcome.match(found) : ConditionOutcome.noMatch(found);
	}

	/** Matches when {@code cdc.sources} names at least one source. */
	static final class Several extends SourceFormCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return outcome(context, true);
		}

	}

	/** Matches when {@code cdc.sources} names no source. */
	static final class Single extends SourceFormCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return outcome(context, false);
		}

	}

}
