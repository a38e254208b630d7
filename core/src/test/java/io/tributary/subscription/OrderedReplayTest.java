package io.tributary.subscription;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.apply.ApplyException;
import io.tributary.schema.RowKey;
import io.tributary.source.RowChange;

import static io.tributary.subscription.FifoFixtures.CASE_INSENSITIVE;
import static io.tributary.subscription.FifoFixtures.at;
import static io.tributary.subscription.FifoFixtures.delete;
import static io.tributary.subscription.FifoFixtures.render;
import static io.tributary.subscription.FifoFixtures.statements;
import static io.tributary.subscription.FifoFixtures.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Splitting queued changes into runs, and applying runs in order with a failure in between. */
class OrderedReplayTest {

	private final KeyFold fold = new KeyFold(CASE_INSENSITIVE);

	@Test
	void startsARunWhereTheKindChanges() {
		List<ChangeRun> runs = ChangeRun.split(entries(upsert("a", 1), upsert("b", 2), delete("c"), delete("d"),
				upsert("e", 3)), this.fold);
		assertThat(statements(runs)).containsExactly("upsert [a=1, b=2]", "delete [c, d]", "upsert [e=3]");
	}

	@Test
	void startsARunWhereACollationEqualKeyRepeats() {
		List<ChangeRun> runs = ChangeRun.split(entries(upsert("A", 1), upsert("b", 2), upsert("a", 3),
				upsert("B", 4), upsert("c", 5)), this.fold);
		assertThat(statements(runs)).containsExactly("upsert [A=1, b=2]", "upsert [a=3, B=4, c=5]");
	}

	@Test
	void treatsAccentsAndTrailingSpacesAsCollationEqual() {
		List<ChangeRun> runs = ChangeRun.split(entries(upsert("é", 1), upsert("E", 2), upsert("x", 3),
				upsert("x ", 4)), this.fold);
		assertThat(statements(runs)).containsExactly("upsert [é=1]", "upsert [E=2, x=3]", "upsert [x =4]");
	}

	@Test
	void mergesAnExactlyRepeatedKeyIntoItsLastImage() {
		List<ChangeRun> runs = ChangeRun.split(entries(upsert("a", 1), upsert("b", 2), upsert("a", 3)), this.fold);
		assertThat(statements(runs)).containsExactly("upsert [a=3, b=2]");
		assertThat(runs.get(0).size()).isEqualTo(3);
	}

	@Test
	void runsHoldTheSequenceExactly() {
		List<BufferedChange> sequence = entries(upsert("A", 1), delete("A"), upsert("a", 2),
				upsert("A", 3), upsert("a", 4), delete("a"));
		List<ChangeRun> runs = ChangeRun.split(sequence, this.fold);
		assertThat(runs.stream().flatMap((run) -> run.changes().stream()).toList()).isEqualTo(sequence);
		assertThat(statements(runs)).containsExactly("upsert [A=1]", "delete [A]", "upsert [a=2]", "upsert [A=3]",
				"upsert [a=4]", "delete [a]");
	}

	@Test
	void foldsOnlyColumnsThatAreNotMemoryComparable() {
		KeyFold binary = new KeyFold(FifoFixtures.layout("utf8mb4_bin"));
		RowKey key = new RowKey(new Object[] { "Ab " });
		assertThat(binary.fold(key)).isSameAs(key);
		assertThat(this.fold.fold(key)).isEqualTo(new RowKey(new Object[] { "ab" }));
		assertThat(KeyFold.foldValue("Straße")).isEqualTo("strasse");
		assertThat(KeyFold.foldValue(-0.0d)).isEqualTo(0.0d);
	}

	@Test
	void appliesRunsInOrderOneStatementEach() {
		FifoFixtures.RecordingApplier applier = new FifoFixtures.RecordingApplier();
		OrderedReplay replay = new OrderedReplay(ChangeRun.split(entries(upsert("A", 1), delete("A"), upsert("a", 2)),
				this.fold));
		replay.applyTo(applier);
		assertThat(applier.statements).containsExactly("upsert [A=1]", "delete [A]", "upsert [a=2]");
		assertThat(replay.applied()).isEqualTo(3);
		assertThat(replay.remaining()).isEmpty();
	}

	@Test
	void stopsAtTheFailedRunAndResumesThere() {
		FifoFixtures.RecordingApplier applier = new FifoFixtures.RecordingApplier();
		applier.failAt = 1;
		List<BufferedChange> sequence = entries(upsert("A", 1), upsert("b", 2), delete("A"),
				upsert("a", 3), upsert("a", 4));
		OrderedReplay replay = new OrderedReplay(ChangeRun.split(sequence, this.fold));
		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> replay.applyTo(applier))
			.withMessageContaining("Deadlock");
		assertThat(replay.applied()).isEqualTo(2);
		assertThat(render(replay.remaining())).containsExactly("-A", "+a=3", "+a=4");
		replay.applyTo(applier);
		assertThat(applier.statements).containsExactly("upsert [A=1, b=2]", "delete [A]", "upsert [a=4]");
		assertThat(replay.applied()).isEqualTo(5);
	}

	@Test
	void emptyRunsApplyNothing() {
		FifoFixtures.RecordingApplier applier = new FifoFixtures.RecordingApplier();
		OrderedReplay replay = new OrderedReplay(List.of());
		replay.applyTo(applier);
		assertThat(applier.statements).isEmpty();
		assertThat(replay.remaining()).isEmpty();
	}

	private static List<BufferedChange> entries(RowChange... changes) {
		List<BufferedChange> entries = new ArrayList<>();
		for (int i = 0; i < changes.length; i++) {
			RowChange change = changes[i];
			entries.add(new BufferedChange(new RowKey(change.key()), change.image(), at(100 + i), 100));
		}
		return entries;
	}

}
