package io.tributary.admin;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * The last minutes of every pipeline's status, sampled at a fixed interval into fixed-size rings,
 * so that a page opened now can chart what happened before it. Rates are computed from the
 * difference of two consecutive samples' counters; the first sample, and a sample whose counter
 * went down (a restart), have no rate. Per table it keeps changes applied per second, bytes
 * buffered, the writer's concurrency and contention events per second. Memory is bounded by the capacity times the number of
 * pipelines and tables, whatever runs.
 */
public final class StatusHistory implements SmartLifecycle {

	/** Default sampling interval. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

	/** Default samples kept: 15 minutes at the default interval. */
	public static final int DEFAULT_CAPACITY = 450;

	/** Tables the overview's charts draw by each measure, besides the pipeline's totals. */
	public static final int OVERVIEW_TABLES = 4;

	private static final Logger logger = LoggerFactory.getLogger(StatusHistory.class);

	private final Supplier<List<PipelineStatus>> statuses;

	private final Clock clock;

	private final Duration interval;

	private final int capacity;

	private final Map<String, PipelineRing> pipelines = new LinkedHashMap<>();

	private ScheduledExecutorService scheduler;

	/**
	 * Creates a history of the default length and interval.
	 * @param statuses reads every pipeline's status
	 */
	public StatusHistory(Supplier<List<PipelineStatus>> statuses) {
		this(statuses, Clock.systemUTC(), DEFAULT_INTERVAL, DEFAULT_CAPACITY);
	}

	/**
	 * Creates a history.
	 * @param statuses reads every pipeline's status
	 * @param clock the time samples are taken at
	 * @param interval time between samples
	 * @param capacity samples kept per series
	 */
	public StatusHistory(Supplier<List<PipelineStatus>> statuses, Clock clock, Duration interval, int capacity) {
		if (capacity < 2) {
			throw new IllegalArgumentException("A history needs room for at least 2 samples, not " + capacity);
		}
		this.statuses = statuses;
		this.clock = clock;
		this.interval = interval;
		this.capacity = capacity;
	}

	/** Takes one sample of every pipeline now. */
	public synchronized void sample() {
		long now = this.clock.millis();
		for (PipelineStatus status : this.statuses.get()) {
			this.pipelines.computeIfAbsent(status.name(), (name) -> new PipelineRing(name, this.capacity))
				.add(now, status);
		}
	}

	/** Returns every pipeline's samples, oldest first, with every table's. */
	public synchronized Snapshot snapshot() {
		return snapshot(Integer.MAX_VALUE);
	}

	/**
	 * Returns every pipeline's samples, oldest first, with those of its busiest tables only: what the
	 * overview's charts draw, whose size then does not grow with the number of tables.
	 * @param busiest how many tables to keep by each measure: those that applied the most changes
	 * over the samples kept, and those that buffered the most bytes at the latest sample
	 * @return the samples; each pipeline's tables in the order first seen, at most twice
	 * {@code busiest} of them
	 */
	public synchronized Snapshot snapshot(int busiest) {
		List<PipelineSeries> series = new ArrayList<>(this.pipelines.size());
		for (PipelineRing ring : this.pipelines.values()) {
			series.add(ring.series(busiest));
		}
		return new Snapshot(this.interval.toMillis(), this.capacity, series);
	}

	/**
	 * Returns the binlog events a pipeline read per second at the latest sample.
	 * @param pipeline the pipeline's name
	 * @return the rate, or {@code null} before two samples
	 */
	public synchronized Double latestEventsPerSecond(String pipeline) {
		PipelineRing ring = this.pipelines.get(pipeline);
		return (ring != null && ring.size > 0) ? orNull(ring.eventsPerSecond[ring.latest()]) : null;
	}

	/**
	 * Returns the changes a table applied per second at the latest sample.
	 * @param pipeline the pipeline's name
	 * @param table the source table
	 * @return the rate, or {@code null} before two samples of the table
	 */
	public synchronized Double latestChangesAppliedPerSecond(String pipeline, String table) {
		PipelineRing ring = this.pipelines.get(pipeline);
		TableRing tableRing = (ring != null && ring.size > 0) ? ring.tables.get(table) : null;
		return (tableRing != null) ? orNull(tableRing.appliedPerSecond[ring.latest()]) : null;
	}

	/**
	 * Returns one table's samples, oldest first, with its pipeline's sample times.
	 * @param pipeline the pipeline's name
	 * @param table the source table, as its status names it
	 * @return the table's history; empty lists before the first sample of the table
	 */
	public synchronized TableHistory tableHistory(String pipeline, String table) {
		PipelineRing ring = this.pipelines.get(pipeline);
		TableRing tableRing = (ring != null) ? ring.tables.get(table) : null;
		if (tableRing == null) {
			return new TableHistory(this.interval.toMillis(), this.capacity, pipeline, table, List.of(), List.of(),
					List.of(), List.of(), List.of());
		}
		int[] slots = ring.slots();
		List<Long> times = new ArrayList<>(slots.length);
		for (int slot : slots) {
			times.add(ring.times[slot]);
		}
		TableSeries series = tableRing.series(slots);
		return new TableHistory(this.interval.toMillis(), this.capacity, pipeline, table, times,
				series.changesAppliedPerSecond(), series.bufferedBytes(), series.applyConcurrency(),
				series.contentionEventsPerSecond());
	}

	@Override
	public synchronized void start() {
		if (this.scheduler != null) {
			return;
		}
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "tributary-admin-history");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.interval.toMillis();
		this.scheduler.scheduleAtFixedRate(this::sampleQuietly, 0, millis, TimeUnit.MILLISECONDS);
	}

	@Override
	public synchronized void stop() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	private void sampleQuietly() {
		try {
			sample();
		}
		catch (RuntimeException ex) {
			// A status that cannot be read now leaves a gap; the next tick tries again.
			logger.debug("Could not sample the pipelines' status", ex);
		}
	}

	/**
	 * Every pipeline's history.
	 *
	 * @param intervalMillis time between samples
	 * @param capacity most samples kept
	 * @param pipelines one entry per pipeline, in the order first seen
	 */
	public record Snapshot(long intervalMillis, int capacity, List<PipelineSeries> pipelines) {

	}

	/**
	 * One pipeline's history; every list has one entry per sample, {@code null} where a value was
	 * unknown.
	 *
	 * @param name the pipeline's name
	 * @param times when each sample was taken, epoch milliseconds
	 * @param lagMillis lag in time
	 * @param lagBytes lag in binlog bytes
	 * @param eventsPerSecond binlog events read per second
	 * @param changesAppliedPerSecond changes applied per second, all tables together
	 * @param bufferedBytes bytes buffered, all tables together
	 * @param tables one entry per table, or per busiest table when the others are left out
	 * @param tablesLeftOut how many tables were left out
	 */
	public record PipelineSeries(String name, List<Long> times, List<Long> lagMillis, List<Long> lagBytes,
			List<Double> eventsPerSecond, List<Double> changesAppliedPerSecond, List<Long> bufferedBytes,
			List<TableSeries> tables, int tablesLeftOut) {

	}

	/**
	 * One table's history, aligned with its pipeline's {@code times}.
	 *
	 * @param name the source table
	 * @param changesAppliedPerSecond changes applied per second
	 * @param bufferedBytes bytes buffered
	 * @param applyConcurrency statements the table's writer allowed at once; unknown before it has
	 * one
	 * @param contentionEventsPerSecond deadlocks and lock wait timeouts met per second
	 */
	public record TableSeries(String name, List<Double> changesAppliedPerSecond, List<Long> bufferedBytes,
			List<Long> applyConcurrency, List<Double> contentionEventsPerSecond) {

	}

	/**
	 * One table's history with its own sample times, for the table's page.
	 *
	 * @param intervalMillis time between samples
	 * @param capacity most samples kept
	 * @param pipeline the pipeline's name
	 * @param table the source table
	 * @param times when each sample was taken, epoch milliseconds
	 * @param changesAppliedPerSecond changes applied per second
	 * @param bufferedBytes bytes buffered
	 * @param applyConcurrency statements the table's writer allowed at once
	 * @param contentionEventsPerSecond deadlocks and lock wait timeouts met per second
	 */
	public record TableHistory(long intervalMillis, int capacity, String pipeline, String table, List<Long> times,
			List<Double> changesAppliedPerSecond, List<Long> bufferedBytes, List<Long> applyConcurrency,
			List<Double> contentionEventsPerSecond) {

	}

	/** The rings of one pipeline; its tables share its write position. */
	private static final class PipelineRing {

		private final String name;

		private final int capacity;

		private final long[] times;

		private final long[] lagMillis;

		private final long[] lagBytes;

		private final double[] eventsPerSecond;

		private final double[] appliedPerSecond;

		private final long[] bufferedBytes;

		private final Map<String, TableRing> tables = new LinkedHashMap<>();

		private int next;

		private int size;

		private long lastTime = -1;

		private long lastEventsRead;

		private long lastApplied;

		PipelineRing(String name, int capacity) {
			this.name = name;
			this.capacity = capacity;
			this.times = new long[capacity];
			this.lagMillis = new long[capacity];
			this.lagBytes = new long[capacity];
			this.eventsPerSecond = new double[capacity];
			this.appliedPerSecond = new double[capacity];
			this.bufferedBytes = new long[capacity];
		}

		void add(long now, PipelineStatus status) {
			int slot = this.next;
			long applied = 0;
			long buffered = 0;
			for (TableStatus table : status.tables()) {
				applied += table.changesApplied();
				buffered += table.bufferedBytes();
				this.tables.computeIfAbsent(table.name(), (name) -> new TableRing(name, this.capacity))
					.add(slot, now, this.lastTime, table);
			}
			for (TableRing table : this.tables.values()) {
				if (table.lastTime != now) {
					table.clear(slot);
				}
			}
			this.times[slot] = now;
			this.lagMillis[slot] = status.lagMillis();
			this.lagBytes[slot] = (status.lagBytes() != null) ? status.lagBytes() : -1;
			this.eventsPerSecond[slot] = rate(this.lastTime, this.lastEventsRead, now, status.source().eventsRead());
			this.appliedPerSecond[slot] = rate(this.lastTime, this.lastApplied, now, applied);
			this.bufferedBytes[slot] = buffered;
			this.lastTime = now;
			this.lastEventsRead = status.source().eventsRead();
			this.lastApplied = applied;
			this.next = (slot + 1) % this.capacity;
			this.size = Math.min(this.size + 1, this.capacity);
		}

		PipelineSeries series(int busiest) {
			List<Long> times = new ArrayList<>(this.size);
			List<Long> lag = new ArrayList<>(this.size);
			List<Long> lagBytes = new ArrayList<>(this.size);
			List<Double> events = new ArrayList<>(this.size);
			List<Double> applied = new ArrayList<>(this.size);
			List<Long> buffered = new ArrayList<>(this.size);
			for (int slot : slots()) {
				times.add(this.times[slot]);
				lag.add(this.lagMillis[slot]);
				lagBytes.add(orNull(this.lagBytes[slot]));
				events.add(orNull(this.eventsPerSecond[slot]));
				applied.add(orNull(this.appliedPerSecond[slot]));
				buffered.add(this.bufferedBytes[slot]);
			}
			int[] slots = slots();
			List<TableRing> kept = busiest(busiest, slots);
			List<TableSeries> tables = new ArrayList<>(kept.size());
			for (TableRing table : kept) {
				tables.add(table.series(slots));
			}
			return new PipelineSeries(this.name, times, lag, lagBytes, events, applied, buffered, tables,
					this.tables.size() - kept.size());
		}

		/** The tables that applied the most over the slots, and those buffering the most now, in the order first seen. */
		private List<TableRing> busiest(int busiest, int[] slots) {
			if (this.tables.size() <= 2L * busiest) {
				return new ArrayList<>(this.tables.values());
			}
			List<TableRing> all = new ArrayList<>(this.tables.values());
			Map<TableRing, Integer> order = new HashMap<>();
			all.forEach((table) -> order.put(table, order.size()));
			int latest = latest();
			Set<TableRing> kept = new HashSet<>();
			all.sort(Comparator.comparingDouble((TableRing table) -> -table.applied(slots)));
			kept.addAll(all.subList(0, busiest));
			all.sort(Comparator.comparingLong((TableRing table) -> -table.bufferedBytes[latest]));
			kept.addAll(all.subList(0, busiest));
			List<TableRing> ordered = new ArrayList<>(kept);
			ordered.sort(Comparator.comparingInt(order::get));
			return ordered;
		}

		int latest() {
			return (this.next - 1 + this.capacity) % this.capacity;
		}

		/** The slots holding samples, oldest first. */
		private int[] slots() {
			int[] slots = new int[this.size];
			int first = (this.next - this.size + this.capacity) % this.capacity;
			for (int i = 0; i < this.size; i++) {
				slots[i] = (first + i) % this.capacity;
			}
			return slots;
		}

	}

	/** The rings of one table, written at its pipeline's slot. */
	private static final class TableRing {

		private final String name;

		private final double[] appliedPerSecond;

		private final long[] bufferedBytes;

		private final int[] concurrency;

		private final double[] contentionPerSecond;

		private long lastTime = -1;

		private long lastApplied;

		// Negative while the table has no writer: its contention has no earlier reading then.
		private long lastContention = -1;

		TableRing(String name, int capacity) {
			this.name = name;
			this.appliedPerSecond = new double[capacity];
			this.bufferedBytes = new long[capacity];
			this.concurrency = new int[capacity];
			this.contentionPerSecond = new double[capacity];
			// A table first seen after its pipeline has no samples before that.
			Arrays.fill(this.appliedPerSecond, Double.NaN);
			Arrays.fill(this.bufferedBytes, -1);
			Arrays.fill(this.concurrency, -1);
			Arrays.fill(this.contentionPerSecond, Double.NaN);
		}

		void add(int slot, long now, long pipelineLastTime, TableStatus table) {
			long previous = (this.lastTime == pipelineLastTime) ? this.lastTime : -1;
			this.appliedPerSecond[slot] = rate(previous, this.lastApplied, now, table.changesApplied());
			this.bufferedBytes[slot] = table.bufferedBytes();
			TableStatus.Apply apply = table.apply();
			long contention = (apply != null) ? apply.contentionEvents() : -1;
			this.concurrency[slot] = (apply != null) ? apply.concurrency() : -1;
			this.contentionPerSecond[slot] = (contention >= 0 && this.lastContention >= 0)
					? rate(previous, this.lastContention, now, contention) : Double.NaN;
			this.lastTime = now;
			this.lastApplied = table.changesApplied();
			this.lastContention = contention;
		}

		/** Changes applied per second, summed over the slots that have a rate. */
		double applied(int[] slots) {
			double sum = 0;
			for (int slot : slots) {
				if (!Double.isNaN(this.appliedPerSecond[slot])) {
					sum += this.appliedPerSecond[slot];
				}
			}
			return sum;
		}

		void clear(int slot) {
			this.appliedPerSecond[slot] = Double.NaN;
			this.bufferedBytes[slot] = -1;
			this.concurrency[slot] = -1;
			this.contentionPerSecond[slot] = Double.NaN;
		}

		TableSeries series(int[] slots) {
			List<Double> applied = new ArrayList<>(slots.length);
			List<Long> buffered = new ArrayList<>(slots.length);
			List<Long> concurrency = new ArrayList<>(slots.length);
			List<Double> contention = new ArrayList<>(slots.length);
			for (int slot : slots) {
				applied.add(orNull(this.appliedPerSecond[slot]));
				buffered.add(orNull(this.bufferedBytes[slot]));
				concurrency.add(orNull(this.concurrency[slot]));
				contention.add(orNull(this.contentionPerSecond[slot]));
			}
			return new TableSeries(this.name, applied, buffered, concurrency, contention);
		}

	}

	/** Per second between two readings of a counter; NaN without an earlier one or when it went down. */
	static double rate(long previousTime, long previousCount, long now, long count) {
		if (previousTime < 0 || now <= previousTime || count < previousCount) {
			return Double.NaN;
		}
		return (count - previousCount) * 1000.0 / (now - previousTime);
	}

	private static Double orNull(double value) {
		return Double.isNaN(value) ? null : value;
	}

	private static Long orNull(long value) {
		return (value < 0) ? null : value;
	}

}
