package io.tributary.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;

/**
 * Registers meters that read one value of a status snapshot each. A meter whose status is gone
 * (no pipeline or table of that name any more) reads NaN, or a count of 0.
 *
 * <p>Registries hold the object a function counter or timer reads from weakly; the caller keeps the
 * {@code status} supplier referenced for as long as the meters live.
 *
 * @param <S> the status type
 */
final class StatusMeters<S> {

	private final MeterRegistry registry;

	private final Supplier<S> status;

	private final Tags tags;

	/** Every meter registered through these and those tagged from them, so that they can be removed together. */
	private final List<Meter> registered;

	StatusMeters(MeterRegistry registry, Supplier<S> status, Tags tags) {
		this(registry, status, tags, new ArrayList<>());
	}

	private StatusMeters(MeterRegistry registry, Supplier<S> status, Tags tags, List<Meter> registered) {
		this.registry = registry;
		this.status = status;
		this.tags = tags;
		this.registered = registered;
	}

	/** Returns meters that add a tag to these. */
	StatusMeters<S> tagged(String key, String value) {
		return new StatusMeters<>(this.registry, this.status, this.tags.and(key, value), this.registered);
	}

	/** Returns the meters registered through these and those tagged from them. */
	List<Meter> registered() {
		return List.copyOf(this.registered);
	}

	void gauge(String name, String baseUnit, String description, ToDoubleFunction<S> value) {
		this.registered.add(Gauge.builder(name, this.status, (supplier) -> read(supplier, value))
			.tags(this.tags)
			.baseUnit(baseUnit)
			.description(description)
			.strongReference(true)
			.register(this.registry));
	}

	/** A gauge of 1 while the condition holds and 0 otherwise. */
	void flag(String name, String description, Predicate<S> condition) {
		gauge(name, null, description, (current) -> condition.test(current) ? 1 : 0);
	}

	void timeGauge(String name, TimeUnit unit, String description, ToDoubleFunction<S> value) {
		this.registered.add(TimeGauge.builder(name, this.status, unit, (supplier) -> read(supplier, value))
			.tags(this.tags)
			.description(description)
			.strongReference(true)
			.register(this.registry));
	}

	void counter(String name, String description, ToDoubleFunction<S> value) {
		this.registered.add(FunctionCounter.builder(name, this.status, (supplier) -> {
			S current = supplier.get();
			return (current != null) ? value.applyAsDouble(current) : 0;
		}).tags(this.tags).description(description).register(this.registry));
	}

	/**
	 * A timer of events counted by the status, with the total time they took.
	 * @param count how many events happened
	 * @param total the time they took together, in {@code unit}
	 */
	void timer(String name, String description, ToLongFunction<S> count, ToDoubleFunction<S> total, TimeUnit unit) {
		this.registered.add(FunctionTimer.builder(name, this.status, (supplier) -> {
			S current = supplier.get();
			return (current != null) ? count.applyAsLong(current) : 0;
		}, (supplier) -> {
			S current = supplier.get();
			return (current != null) ? total.applyAsDouble(current) : 0;
		}, unit).tags(this.tags).description(description).register(this.registry));
	}

	private static <S> double read(Supplier<S> supplier, ToDoubleFunction<S> value) {
		S current = supplier.get();
		return (current != null) ? value.applyAsDouble(current) : Double.NaN;
	}

}
