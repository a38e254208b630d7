package io.tributary.source.binlog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import io.tributary.settings.SettingNames;
import io.tributary.name.TableId;
import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How heartbeats move the delivered position: only between transactions, only forward, only in
 * the file the connection is reading.
 */
class TransactionBoundariesTest {

	private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

	private static final String FILE = "binlog.000001";

	private final List<String> abandoned = new ArrayList<>();

	private final TransactionBoundaries boundaries = new TransactionBoundaries(
			new RowEventDispatch(new IgnoringHandler()), this.abandoned::add);

	@Test
	void heartbeatAfterTheFirstRotateOfAGtidConnectionMovesDeliveredToTheHead() {
		connectByGtid(UUID + ":1-10");
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":4|" + UUID + ":1-10");
		heartbeat(FILE, 2_968);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":2968|" + UUID + ":1-10");
	}

	@Test
	void heartbeatBeforeTheConnectionNamedItsFileIsIgnored() {
		Position from = Position.of(FILE, 500, UUID + ":1-10");
		startAndConnect(from);
		heartbeat(FILE, 2_968);
		assertThat(this.boundaries.delivered()).isEqualTo(from);
	}

	@Test
	void heartbeatInsideATransactionIsIgnoredUntilItsCommit() {
		connectByGtid(UUID + ":1-10");
		event(EventType.GTID, 3_100, new GtidEventData(MySqlGtid.fromString(UUID + ":11"), (byte) 0, 0, 0, 0, 0, 0, 0, 0));
		// The transaction's GTID event is where it starts; heartbeats inside it move nothing.
		heartbeat(FILE, 3_150);
		assertThat(this.boundaries.delivered().offset()).as("after the GTID event").isEqualTo(3_100);
		event(EventType.QUERY, 3_200, query("BEGIN"));
		heartbeat(FILE, 3_250);
		assertThat(this.boundaries.delivered().offset()).as("after BEGIN").isEqualTo(3_100);
		event(EventType.XID, 3_400, null);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":3400|" + UUID + ":1-11");
		heartbeat(FILE, 3_400);
		heartbeat(FILE, 3_500);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":3500|" + UUID + ":1-11");
	}

	@Test
	void aTableCreatedOutsideOrInsideATransactionIsToldOfAndATemporaryOneIsNot() {
		List<TableId> appeared = new ArrayList<>();
		TransactionBoundaries told = new TransactionBoundaries(new RowEventDispatch(new IgnoringHandler() {

			@Override
			public void onTableAppeared(TableId table) {
				appeared.add(table);
			}

		}), this.abandoned::add);
		Position from = Position.of(FILE, 4, UUID + ":1-10");
		told.startAt(from);
		told.connecting(from);
		told.handle(header(EventType.QUERY, 0, 100, 0), query("CREATE TABLE shop.a (id INT PRIMARY KEY)"));
		told.handle(header(EventType.QUERY, 0, 200, 0), query("BEGIN"));
		// As MariaDB logs CREATE TABLE ... SELECT: inside the transaction of its rows.
		told.handle(header(EventType.QUERY, 0, 300, 0), query("CREATE TABLE `shop`.`b` (id INT PRIMARY KEY)"));
		told.handle(header(EventType.QUERY, 0, 400, 0), query("CREATE TEMPORARY TABLE shop.t (id INT)"));
		told.handle(header(EventType.XID, 0, 500, 0), null);
		told.handle(header(EventType.QUERY, 0, 600, 0), query("RENAME TABLE shop.c TO shop.d"));
		assertThat(appeared).containsExactly(new TableId("shop", "a"), new TableId("shop", "b"),
				new TableId("shop", "d"));
	}

	@Test
	void heartbeatNeverMovesDeliveredBackwardsNorIntoAnotherFile() {
		connectByGtid(UUID + ":1-10");
		heartbeat(FILE, 5_000);
		heartbeat(FILE, 4_000);
		assertThat(this.boundaries.delivered().offset()).isEqualTo(5_000);
		heartbeat("binlog.000002", 9_000);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":5000|" + UUID + ":1-10");
		heartbeat(FILE, 0);
		assertThat(this.boundaries.delivered().offset()).isEqualTo(5_000);
	}

	@Test
	void heartbeatAfterARotationReachesTheNewFilesHead() {
		Position from = Position.of(FILE, 2_000, "0-1-12");
		startAndConnect(from);
		rotate(FILE, 2_000);
		rotate("binlog.000002", 4);
		assertThat(this.boundaries.delivered()).hasToString("binlog.000002:4|0-1-12");
		heartbeat("binlog.000002", 385);
		assertThat(this.boundaries.delivered()).hasToString("binlog.000002:385|0-1-12");
	}

	@Test
	void taggedGtidAnchorsDeliveredAtItsTransactionAndStopsHeartbeatsOfTheGtidConnection() throws IOException {
		connectByGtid(UUID + ":1-10");
		// A heartbeat sent while the server skipped an executed transaction may fall inside it.
		heartbeat(FILE, 1_234);
		this.boundaries.handle(typedHeader(TypedHeaderDeserializer.GTID_TAGGED, 80, 2_080), null);
		assertThat(this.boundaries.delivered()).as("the tagged transaction's start, without GTIDs")
			.hasToString(FILE + ":2000");
		event(EventType.QUERY, 2_200, query("BEGIN"));
		event(EventType.XID, 2_400, null);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":2400");
		heartbeat(FILE, 9_000);
		assertThat(this.boundaries.delivered()).as("heartbeats of a GTID connection after a tagged GTID")
			.hasToString(FILE + ":2400");
		assertThat(this.boundaries.resumesByGtid(this.boundaries.delivered())).isFalse();
		assertThat(this.abandoned).isEmpty();
	}

	@Test
	void mariaDbGtidsNameTheServerOfTheEventHeaderAndPositionsTheServerRead() {
		Position from = Position.of(FILE, 2_000, "0-1-10", 1);
		this.boundaries.startAt(from);
		assertThat(this.boundaries.resumesByGtid(from)).as("MariaDB GTIDs").isTrue();
		this.boundaries.connecting(from);
		assertThat(this.boundaries.connectedTo(2)).as("by GTID, any server of the topology will do").isNull();
		rotate(FILE, 4);
		mariaDbGtid(2, 11, 2_100, 0);
		event(EventType.XID, 2_300, null);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":2300#2|0-2-11");
	}

	@Test
	void theFirstTransactionOfAGtidConnectionStartsWhereItsGtidEventStandsNotAtTheFakeRotate() {
		// MariaDB positions a GTID connection without heartbeats: after its ROTATE to offset 4 the
		// first transaction's own GTID event is the first true boundary, and its changes resume there.
		Position from = Position.of(FILE, 50_548, "0-1-103", 1);
		startAndConnect(from);
		this.boundaries.connectedTo(1);
		rotate(FILE, 4);
		assertThat(this.boundaries.delivered().offset()).isEqualTo(4);
		mariaDbGtid(1, 104, 50_600, 52);
		assertThat(this.boundaries.delivered()).as("where the changes of this transaction resume from")
			.hasToString(FILE + ":50548#1|0-1-103");
		event(EventType.XID, 50_800, null);
		assertThat(this.boundaries.delivered()).hasToString(FILE + ":50800#1|0-1-104");
	}

	@Test
	void aConnectionByFileAndOffsetToAnotherServerIsRefused() {
		TransactionBoundaries byFile = new TransactionBoundaries(new RowEventDispatch(new IgnoringHandler()),
				this.abandoned::add, false, SettingNames.ENGINE);
		Position from = Position.of(FILE, 2_000, UUID + ":1-10", 1);
		byFile.startAt(from);
		assertThat(byFile.resumesByGtid(from)).as("GTID positioning off").isFalse();
		byFile.connecting(from);
		assertThat(byFile.connectedTo(2)).contains("server_id 2").contains("server_id 1")
			.contains("PipelineSettings.invalidCheckpointBehavior=restart");
		byFile.connecting(from);
		assertThat(byFile.connectedTo(1)).as("the same server").isNull();
		Position written = Position.of(FILE, 2_000);
		byFile.startAt(written);
		byFile.connecting(written);
		assertThat(byFile.connectedTo(2)).as("a position that names no server").isNull();
	}

	private void connectByGtid(String gtids) {
		Position from = Position.of("mysql-bin.000009", 77, gtids);
		this.boundaries.startAt(from);
		assertThat(this.boundaries.resumesByGtid(from)).isTrue();
		this.boundaries.connecting(from);
		// Auto-positioning: the server names the first file it reads, from its start.
		rotate(FILE, 4);
	}

	private void startAndConnect(Position from) {
		this.boundaries.startAt(from);
		this.boundaries.connecting(from);
	}

	private void rotate(String file, long position) {
		RotateEventData rotate = new RotateEventData();
		rotate.setBinlogFilename(file);
		rotate.setBinlogPosition(position);
		event(EventType.ROTATE, 0, rotate);
	}

	private void heartbeat(String file, long position) {
		event(EventType.HEARTBEAT, position, new StreamDeserializer.Heartbeat(file));
	}

	private void event(EventType type, long nextPosition, EventData data) {
		this.boundaries.handle(header(type, 0, nextPosition, 0), data);
	}

	/** Hands over the GTID event of a MariaDB transaction in domain 0. */
	private void mariaDbGtid(long serverId, long sequence, long nextPosition, long length) {
		MariadbGtidEventData gtid = new MariadbGtidEventData();
		gtid.setDomainId(0);
		gtid.setSequence(sequence);
		this.boundaries.handle(header(EventType.MARIADB_GTID, serverId, nextPosition, length), gtid);
	}

	private static EventHeaderV4 header(EventType type, long serverId, long nextPosition, long length) {
		EventHeaderV4 header = new EventHeaderV4();
		header.setEventType(type);
		header.setServerId(serverId);
		header.setNextPosition(nextPosition);
		header.setEventLength(length);
		return header;
	}

	private static QueryEventData query(String sql) {
		QueryEventData query = new QueryEventData();
		query.setSql(sql);
		query.setDatabase("");
		return query;
	}

	private static TypedHeaderDeserializer.Header typedHeader(int code, long length, long next) throws IOException {
		byte[] bytes = new byte[19];
		bytes[4] = (byte) code;
		put(bytes, 9, length);
		put(bytes, 13, next);
		return new TypedHeaderDeserializer().deserialize(new ByteArrayInputStream(bytes));
	}

	private static void put(byte[] bytes, int at, long value) {
		for (int i = 0; i < 4; i++) {
			bytes[at + i] = (byte) (value >>> (8 * i));
		}
	}

}
