package io.tributary.pipeline;

import org.junit.jupiter.api.Test;

import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;

import static org.assertj.core.api.Assertions.assertThat;

class TableTimelineTest {

	private static final long SECOND = 1_000_000_000L;

	@Test
	void keepsTheMostRecentEventsOnly() {
		TableTimeline timeline = new TableTimeline();
		for (int i = 0; i < TableDetail.TIMELINE_LENGTH + 50; i++) {
			timeline.add(TableEvent.Kind.ACTION, "event " + i, null);
		}
		assertThat(timeline.snapshot()).hasSize(TableDetail.TIMELINE_LENGTH);
		assertThat(timeline.snapshot().get(0).message()).isEqualTo("event 50");
		assertThat(timeline.snapshot().get(TableDetail.TIMELINE_LENGTH - 1).message())
			.isEqualTo("event " + (TableDetail.TIMELINE_LENGTH + 49));
	}

	@Test
	void aStretchOfWaitingForRoomIsOneEventWhenItBeginsAndOneWhenItEnds() {
		TableTimeline timeline = new TableTimeline();
		timeline.observeParks(0, 0, 0);
		timeline.observeParks(3, 40, SECOND);
		// Cycles without a wait in between do not end the stretch until it has been quiet a while.
		timeline.observeParks(3, 40, 2 * SECOND);
		timeline.observeParks(7, 90, 3 * SECOND);
		timeline.observeParks(7, 90, 4 * SECOND);
		assertThat(timeline.snapshot()).hasSize(1);
		timeline.observeParks(7, 90, 3 * SECOND + TableTimeline.QUIET_NANOS);
		assertThat(timeline.snapshot()).extracting(TableEvent::message)
			.containsExactly("The reader began waiting for room in the buffer (soft limit reached)",
					"The reader stopped waiting for room: it waited 7 times for 90 ms in all");
		assertThat(timeline.snapshot()).allMatch((e) -> e.kind() == TableEvent.Kind.PARK);
	}

	@Test
	void aNewBufferCountingFromZeroDoesNotConfuseTheStretch() {
		TableTimeline timeline = new TableTimeline();
		timeline.observeParks(100, 5_000, 0);
		timeline.observeParks(2, 30, SECOND);
		timeline.observeParks(2, 30, SECOND + TableTimeline.QUIET_NANOS);
		assertThat(timeline.snapshot()).extracting(TableEvent::message)
			.containsExactly("The reader began waiting for room in the buffer (soft limit reached)",
					"The reader stopped waiting for room: it waited 2 times for 30 ms in all");
	}

}
