package io.tributary.subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oldest held position, checked after every step against a plain sorted multiset, while
 * positions arrive mostly in binlog order, some come back older (put back after a failed apply),
 * released ones are held again, and the buffer is emptied now and then.
 */
class PendingPositionsTest {

	@Test
	void oldestIsAlwaysTheSmallestHeldPosition() {
		Random random = new Random(42);
		PendingPositions pending = new PendingPositions();
		TreeMap<Position, Integer> expected = new TreeMap<>();
		List<Position> held = new ArrayList<>();
		long offset = 4;
		for (int step = 0; step < 200_000; step++) {
			int action = random.nextInt(100);
			if (action < 50) {
				// The reader: a new transaction, or another change of the same one.
				offset += (random.nextInt(4) == 0) ? 0 : 1 + random.nextInt(300);
				hold(position(offset), pending, expected, held);
			}
			else if (action < 55 && offset > 4) {
				// A change put back after a failed apply: older than what the reader is at.
				hold(position(4 + random.nextInt((int) Math.min(offset - 3, Integer.MAX_VALUE))), pending, expected, held);
			}
			else if (action < 99 && !held.isEmpty()) {
				Position released = held.remove(random.nextInt(held.size()));
				pending.remove(released);
				expected.computeIfPresent(released, (p, count) -> (count == 1) ? null : count - 1);
			}
			else if (action == 99 && random.nextInt(50) == 0) {
				pending.clear();
				expected.clear();
				held.clear();
			}
			assertThat(pending.oldest()).as("step %d", step)
				.isEqualTo(expected.isEmpty() ? null : expected.firstKey());
		}
	}

	@Test
	void aLongHeldPositionDoesNotKeepEveryReleasedOneBehindIt() {
		PendingPositions pending = new PendingPositions();
		Position first = position(4);
		pending.add(first);
		for (long offset = 5; offset < 1_000_000; offset++) {
			Position next = position(offset);
			pending.add(next);
			pending.remove(next);
		}
		assertThat(pending.retained()).isLessThan(2_000);
		assertThat(pending.oldest()).isEqualTo(first);
		pending.remove(first);
		assertThat(pending.oldest()).isNull();
	}

	@Test
	void aPositionHeldAmongTheOlderOnesIsCountedOnceMoreWhenItComesBackAfterTheQueueEmptied() {
		PendingPositions pending = new PendingPositions();
		pending.add(position(20));
		pending.add(position(10));
		pending.remove(position(20));
		assertThat(pending.oldest()).isEqualTo(position(10));
		// The queue of arrivals is empty now: 10 is newer than anything in it, yet already held.
		pending.add(position(10));
		pending.remove(position(10));
		assertThat(pending.oldest()).isEqualTo(position(10));
		pending.remove(position(10));
		assertThat(pending.oldest()).isNull();
	}

	private static void hold(Position position, PendingPositions pending, TreeMap<Position, Integer> expected,
			List<Position> held) {
		pending.add(position);
		expected.merge(position, 1, Integer::sum);
		held.add(position);
	}

	private static Position position(long offset) {
		return Position.of("mysql-bin.000001", offset);
	}

}
