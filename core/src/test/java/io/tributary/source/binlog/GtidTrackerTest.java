package io.tributary.source.binlog;

import com.github.shyiko.mysql.binlog.GtidSet;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GtidTrackerTest {

	private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

	@Test
	void addsAMySqlTransactionWhenItsCommitIsRead() {
		GtidTracker tracker = GtidTracker.startingAt(UUID + ":1-5");
		tracker.begin(new GtidEventData(MySqlGtid.fromString(UUID + ":6"), (byte) 0, 0, 0, 0, 0, 0, 0, 0), 9);
		assertThat(tracker.current()).isEqualTo(UUID + ":1-5");
		tracker.commit();
		assertThat(tracker.current()).isEqualTo(UUID + ":1-6");
		assertThat(GtidTracker.resumesByGtid(tracker.current())).isTrue();
	}

	@Test
	void rendersTheMySqlSetAsTheClientLibraryDoes() {
		String other = "4aa1b2c3-71ca-11e1-9e33-c80aa9429562";
		String start = UUID + ":1-5:7-9," + other + ":1-3";
		GtidTracker tracker = GtidTracker.startingAt(start);
		GtidSet expected = new GtidSet(start);
		assertThat(tracker.current()).isEqualTo(expected.toString());
		for (String gtid : new String[] { UUID + ":6", other + ":4", UUID + ":12", "5bb1b2c3-71ca-11e1-9e33-c80aa9429562:1",
				UUID + ":10" }) {
			tracker.begin(new GtidEventData(MySqlGtid.fromString(gtid), (byte) 0, 0, 0, 0, 0, 0, 0, 0), 9);
			tracker.commit();
			expected.add(gtid);
			assertThat(tracker.current()).as("after %s", gtid).isEqualTo(expected.toString());
		}
		assertThat(tracker.current()).startsWith(UUID + ":1-10:12-12,");
	}

	@Test
	void keepsTheLatestMariaDbGtidPerDomainWithTheServerIdOfItsHeader() {
		GtidTracker tracker = GtidTracker.startingAt("0-1-10,2-5-3");
		// As decoded from a binlog: domain and sequence number only; the server id is in the event header.
		MariadbGtidEventData gtid = new MariadbGtidEventData();
		gtid.setDomainId(0);
		gtid.setSequence(11);
		tracker.begin(gtid, 2);
		tracker.commit();
		assertThat(tracker.current()).isEqualTo("0-2-11,2-5-3");
		assertThat(GtidTracker.resumesByGtid(tracker.current())).isTrue();
		assertThat(GtidTracker.isMariaDb(tracker.current())).isTrue();
		assertThat(GtidTracker.isMariaDb(UUID + ":1-5")).isFalse();
		assertThat(GtidTracker.startingAt(null)).isNull();
	}

	@Test
	void aTaggedMySqlSetIsFollowedByFileAndOffsetOnly() {
		String tagged = UUID + ":1-5,4aa1b2c3-71ca-11e1-9e33-c80aa9429562:orders:1-3:_batch:7";
		assertThat(GtidTracker.isTagged(tagged)).isTrue();
		assertThat(GtidTracker.isTagged(UUID + ":1-5:7-9")).isFalse();
		assertThat(GtidTracker.isTagged("0-1-10,2-5-3")).isFalse();
		assertThat(GtidTracker.resumesByGtid(tagged)).isFalse();
		assertThat(GtidTracker.startingAt(tagged)).isNull();
	}

}
