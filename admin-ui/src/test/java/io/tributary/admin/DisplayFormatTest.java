package io.tributary.admin;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Checksum;
import io.tributary.status.TableStatus.Checksum.State;
import io.tributary.status.TableStatus.Phase;

import static org.assertj.core.api.Assertions.assertThat;

class DisplayFormatTest {

	private final DisplayFormat format = new DisplayFormat(new SteppingClock(Instant.parse("2026-03-01T12:00:00Z")));

	@Test
	void aChecksumReadsAsItsStateChunksAndWhatStillDifferedAfterTheRecheck() {
		assertThat(this.format.checksum(Checksum.IDLE)).isEqualTo(DisplayFormat.UNKNOWN);
		assertThat(this.format.checksum(sum(State.RUNNING, 1_500, 3, 0, 0))).isEqualTo("RUNNING: 1,500 chunks so far");
		// A chunk that differed only by a change on its way reads as equal once re-checked.
		assertThat(this.format.checksum(sum(State.DONE, 12, 1, 0, 0))).isEqualTo("DONE: 12 chunks, equal");
		assertThat(this.format.checksum(sum(State.DONE, 12, 5, 2, 1))).isEqualTo("DONE: 12 chunks, 2 differed, 1 repaired");
		assertThat(this.format.checksum(sum(State.FAILED, 7, 0, 0, 0))).isEqualTo("FAILED after 7 chunks");
	}

	@Test
	void aCountTakesItsNounInTheSingularForOne() {
		assertThat(this.format.plural(1, "key")).isEqualTo("1 key");
		assertThat(this.format.plural(0, "key")).isEqualTo("0 keys");
		assertThat(this.format.plural(12_345, "key")).isEqualTo("12,345 keys");
	}

	private static Checksum sum(State state, long checked, long differing, long stillDiffering, long repaired) {
		return new Checksum(state, checked, differing, stillDiffering, repaired, checked * 1000, null, null, null);
	}

	@Test
	void tablesAreGroupedByTheirRuleListedOnesFirstWithACountByPhase() {
		List<TableStatus> tables = List.of(table("s.b_1", "b", Phase.STREAMING), table("s.a_1", "a", Phase.FAILED),
				table("s.listed", null, Phase.STREAMING), table("s.b_2", "b", Phase.STREAMING),
				table("s.a_2", "a", Phase.STREAMING), table("s.b_3", "b", Phase.SNAPSHOTTING));
		List<DisplayFormat.RuleGroup> groups = this.format.byRule(tables);
		assertThat(groups).extracting(DisplayFormat.RuleGroup::rule).containsExactly(null, "b", "a");
		assertThat(groups).extracting(DisplayFormat.RuleGroup::first).containsExactly(0, 1, 4);
		assertThat(groups.get(1).tables()).extracting(TableStatus::name).containsExactly("s.b_1", "s.b_2", "s.b_3");
		assertThat(groups.get(1).summary()).isEqualTo("3 tables: 1 snapshotting, 2 streaming");
		assertThat(groups.get(2).summary()).isEqualTo("2 tables: 1 streaming, 1 failed");
		assertThat(this.format.byRule(List.of(table("s.x", null, Phase.STREAMING))))
			.extracting(DisplayFormat.RuleGroup::rule).containsExactly((String) null);
	}

	private static TableStatus table(String name, String rule, Phase phase) {
		return TableStatus.builder(name, "replica.x", phase).rule(rule).build();
	}

}
