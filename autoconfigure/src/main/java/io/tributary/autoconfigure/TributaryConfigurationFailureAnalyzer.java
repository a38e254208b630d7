package io.tributary.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link TributaryConfigurationException}, however deep in the startup failure it lies,
 * as the failure's Description (the reason, the property and its value) and Action.
 */
class TributaryConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<TributaryConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, TributaryConfigurationException cause) {
		StringBuilder description = new StringBuilder("Tributary cannot start: ").append(cause.getReason()).append('.');
		if (cause.getProperty() != null) {
			description.append(String.format("%n%n    Property: %s%n    Value: %s", cause.getProperty(),
					(cause.getValue() != null) ? "\"" + cause.getValue() + "\"" : "(not set)"));
		}
		return new FailureAnalysis(description.toString(), cause.getAction(), cause);
	}

}
