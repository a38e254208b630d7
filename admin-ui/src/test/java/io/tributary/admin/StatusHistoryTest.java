package io.tributary.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.admin.StatusHistory.PipelineSeries;
import io.tributary.admin.StatusHistory.TableSeries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.Await;

import static io.tributary.admin.Statuses.pipeline;
import static io.tributary.admin.Statuses.streaming;
import static org.assertj.core.api.Assertions.assertThat;

/** The history sampled by hand at a clock the test moves, two seconds a step. */
class StatusHistoryTest {

	private static final long START = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();

	private final SteppingClock clock = new SteppingClock(Instant.ofEpochMilli(START));

	private final List<PipelineStatus> current = new ArrayList<>();

	private StatusHistory history(int capacity) {
		return new StatusHistory(() -> List.copyOf(this.current), this.clock, Duration.ofSeconds(2), capacity);
	}

	@Test
	void ratesComeFromTheDifferenceOfTwoSamples() {
		StatusHistory history = history(10);
		this.current.add(pipeline("main", 1_000, 250, 4_096L, streaming("shop.a", 100, 2_000), streaming("shop.b", 0, 0)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 1_600, 0, null, streaming("shop.a", 500, 0), streaming("shop.b", 40, 512)));
		history.sample();

		PipelineSeries main = history.snapshot().pipelines().get(0);
		assertThat(main.name()).isEqualTo("main");
		assertThat(main.times()).containsExactly(START, START + 2_000);
		assertThat(main.eventsPerSecond()).containsExactly(null, 300.0);
		assertThat(main.changesAppliedPerSecond()).containsExactly(null, 220.0);
		assertThat(main.lagMillis()).containsExactly(250L, 0L);
		assertThat(main.lagBytes()).containsExactly(4_096L, null);
		assertThat(main.bufferedBytes()).containsExactly(2_000L, 512L);
		TableSeries a = main.tables().get(0);
		assertThat(a.name()).isEqualTo("shop.a");
		assertThat(a.changesAppliedPerSecond()).containsExactly(null, 200.0);
		assertThat(a.bufferedBytes()).containsExactly(2_000L, 0L);
		assertThat(main.tables().get(1).changesAppliedPerSecond()).containsExactly(null, 20.0);
	}

	@Test
	void eachTableKeepsItsApplyConcurrencyAndContentionRate() {
		StatusHistory history = history(10);
		this.current.add(pipeline("main", 0, 0, 0L, withApply(streaming("shop.a", 0, 0), null)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 0, 0, 0L, withApply(streaming("shop.a", 0, 0), apply(10, 8))));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 0, 0, 0L, withApply(streaming("shop.a", 0, 0), apply(16, 4))));
		history.sample();

		TableSeries a = history.snapshot().pipelines().get(0).tables().get(0);
		assertThat(a.applyConcurrency()).as("unknown before the table has a writer").containsExactly(null, 8L, 4L);
		assertThat(a.contentionEventsPerSecond()).containsExactly(null, null, 3.0);
		StatusHistory.TableHistory table = history.tableHistory("main", "shop.a");
		assertThat(table.times()).containsExactly(START, START + 2_000, START + 4_000);
		assertThat(table.applyConcurrency()).containsExactly(null, 8L, 4L);
		assertThat(table.contentionEventsPerSecond()).containsExactly(null, null, 3.0);
		assertThat(history.tableHistory("main", "shop.none").times()).isEmpty();
		assertThat(history.tableHistory("other", "shop.a").times()).isEmpty();
	}

	private static TableStatus.Apply apply(long contentionEvents, int concurrency) {
		return new TableStatus.Apply(0, 0, 0, 0, contentionEvents, 0, concurrency, 8);
	}

	private static TableStatus withApply(TableStatus t, TableStatus.Apply apply) {
		return t.toBuilder().apply(apply).build();
	}

	@Test
	void aCounterThatWentDownHasNoRate() {
		StatusHistory history = history(10);
		this.current.add(pipeline("main", 1_000, 0, 0L, streaming("shop.a", 900, 0)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 10, 0, 0L, streaming("shop.a", 5, 0)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 30, 0, 0L, streaming("shop.a", 9, 0)));
		history.sample();

		PipelineSeries main = history.snapshot().pipelines().get(0);
		assertThat(main.eventsPerSecond()).containsExactly(null, null, 10.0);
		assertThat(main.tables().get(0).changesAppliedPerSecond()).containsExactly(null, null, 2.0);
	}

	@Test
	void theRingKeepsTheNewestSamplesInOrderOnceItWraps() {
		StatusHistory history = history(4);
		for (int i = 0; i < 11; i++) {
			this.current.clear();
			this.current.add(pipeline("main", i * 100L, i, (long) i, streaming("shop.a", i * 10L, i)));
			history.sample();
			this.clock.step();
		}
		PipelineSeries main = history.snapshot().pipelines().get(0);
		assertThat(main.times()).hasSize(4).isSorted();
		assertThat(main.lagMillis()).containsExactly(7L, 8L, 9L, 10L);
		assertThat(main.eventsPerSecond()).containsExactly(50.0, 50.0, 50.0, 50.0);
		assertThat(main.tables().get(0).bufferedBytes()).containsExactly(7L, 8L, 9L, 10L);
		assertThat(main.tables().get(0).changesAppliedPerSecond()).containsExactly(5.0, 5.0, 5.0, 5.0);
	}

	@Test
	void theDefaultHistoryHoldsFifteenMinutesAndNoMore() {
		StatusHistory history = new StatusHistory(() -> List.copyOf(this.current), this.clock,
				StatusHistory.DEFAULT_INTERVAL, StatusHistory.DEFAULT_CAPACITY);
		this.current.add(pipeline("main", 0, 0, 0L, streaming("shop.a", 0, 0)));
		for (int i = 0; i < 2_000; i++) {
			history.sample();
			this.clock.step();
		}
		PipelineSeries main = history.snapshot().pipelines().get(0);
		assertThat(main.times()).hasSize(450);
		assertThat(main.times().get(449) - main.times().get(0)).isEqualTo(Duration.ofMinutes(15).minusSeconds(2).toMillis());
		assertThat(main.tables().get(0).bufferedBytes()).hasSize(450);
		assertThat(main.tables().get(0).applyConcurrency()).hasSize(450);
		assertThat(main.tables().get(0).contentionEventsPerSecond()).hasSize(450);
	}

	@Test
	void aTableMissingFromASampleHasAGapThere() {
		StatusHistory history = history(10);
		this.current.add(pipeline("main", 0, 0, 0L, streaming("shop.a", 0, 10), streaming("shop.b", 0, 20)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 0, 0, 0L, streaming("shop.a", 0, 10)));
		history.sample();
		this.clock.step();
		this.current.set(0, pipeline("main", 0, 0, 0L, streaming("shop.a", 0, 10), streaming("shop.b", 8, 30)));
		history.sample();

		TableSeries b = history.snapshot().pipelines().get(0).tables().get(1);
		assertThat(b.bufferedBytes()).containsExactly(20L, null, 30L);
		assertThat(b.changesAppliedPerSecond()).containsExactly(null, null, null);
	}

	@Test
	void startedItSamplesOnItsOwnThreadUntilStopped() throws Exception {
		StatusHistory history = new StatusHistory(() -> List.copyOf(this.current), Clock.systemUTC(),
				Duration.ofMillis(10), 100);
		this.current.add(pipeline("main", 0, 0, 0L));
		history.start();
		try {
			assertThat(history.isRunning()).isTrue();
			Await.value("three samples", Duration.ofSeconds(10), history::snapshot,
					(snapshot) -> !snapshot.pipelines().isEmpty() && snapshot.pipelines().get(0).times().size() >= 3);
		}
		finally {
			history.stop();
		}
		assertThat(history.isRunning()).isFalse();
	}

}
