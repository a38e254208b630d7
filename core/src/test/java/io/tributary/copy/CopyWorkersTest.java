package io.tributary.copy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopyWorkersTest {

	@Test
	void oneThreadReadsTheNextChunkWhileItWritesOne() throws Exception {
		CountDownLatch secondRead = new CountDownLatch(1);
		List<String> steps = Collections.synchronizedList(new ArrayList<>());
		try (CopyWorkers workers = new CopyWorkers(1, "test-copy")) {
			assertThat(workers.awaitSlot()).isTrue();
			workers.run(() -> {
				steps.add("read 1");
				return () -> {
					// Without the overlap the second chunk is read only after this write returns.
					assertThat(secondRead.await(30, TimeUnit.SECONDS)).as("second chunk read during the first write")
						.isTrue();
					steps.add("write 1");
				};
			});
			assertThat(workers.awaitSlot()).isTrue();
			workers.run(() -> {
				steps.add("read 2");
				secondRead.countDown();
				return () -> steps.add("write 2");
			});
			workers.awaitIdle();
			workers.throwFailure();
		}
		assertThat(steps).containsExactly("read 1", "read 2", "write 1", "write 2");
	}

	@Test
	void holdsAtMostOneChunkMoreThanItsThreadsAndWritesOneThreadsChunksInOrder() throws Exception {
		for (int threads : new int[] { 1, 2, 3 }) {
			AtomicInteger reading = new AtomicInteger();
			AtomicInteger writing = new AtomicInteger();
			AtomicInteger held = new AtomicInteger();
			AtomicInteger mostReading = new AtomicInteger();
			AtomicInteger mostWriting = new AtomicInteger();
			AtomicInteger mostHeld = new AtomicInteger();
			List<Integer> written = Collections.synchronizedList(new ArrayList<>());
			try (CopyWorkers workers = new CopyWorkers(threads, "test-copy")) {
				for (int chunk = 0; chunk < 200; chunk++) {
					assertThat(workers.awaitSlot()).isTrue();
					int number = chunk;
					workers.run(() -> {
						mostReading.accumulateAndGet(reading.incrementAndGet(), Math::max);
						mostHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
						work(number);
						reading.decrementAndGet();
						return () -> {
							mostWriting.accumulateAndGet(writing.incrementAndGet(), Math::max);
							work(3 * number);
							written.add(number);
							writing.decrementAndGet();
							held.decrementAndGet();
						};
					});
				}
				workers.awaitIdle();
				workers.throwFailure();
			}
			assertThat(written).as("%d thread(s)", threads).hasSize(200);
			assertThat(mostReading.get()).as("%d thread(s)", threads).isLessThanOrEqualTo(threads);
			assertThat(mostWriting.get()).as("%d thread(s)", threads).isLessThanOrEqualTo(threads);
			assertThat(mostHeld.get()).as("%d thread(s)", threads).isLessThanOrEqualTo(threads + 1);
			if (threads == 1) {
				assertThat(written).isSorted();
			}
		}
	}

	@Test
	void aFailedReadOrWriteIsThrownOnceIdle() throws Exception {
		for (boolean inWrite : new boolean[] { false, true }) {
			try (CopyWorkers workers = new CopyWorkers(2, "test-copy")) {
				assertThat(workers.awaitSlot()).isTrue();
				workers.run(() -> {
					if (!inWrite) {
						throw new IllegalStateException("read failed");
					}
					return () -> {
						throw new IllegalStateException("write failed");
					};
				});
				workers.awaitIdle();
				assertThat(workers.failed()).isTrue();
				assertThatThrownBy(workers::throwFailure).hasMessage(inWrite ? "write failed" : "read failed");
			}
		}
	}

	/** Some CPU work of varying length, so that reads and writes interleave differently. */
	private static void work(int seed) {
		long value = seed;
		for (int i = 0; i < 1_000 + (seed * 7919) % 20_000; i++) {
			value = value * 6364136223846793005L + 1442695040888963407L;
		}
		if (value == 42) {
			throw new IllegalStateException("unreachable");
		}
	}

}
