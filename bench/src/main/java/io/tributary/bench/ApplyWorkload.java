package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.tributary.name.TableId;
import io.tributary.test.TestDatabaseServer;

/**
 * What the apply scenario writes on the source: {@code sbtest.sbtest1} in sysbench's shape, then
 * backlogs of single-row {@code UPDATE sbtest1 SET k = k + 1 WHERE id = ?} transactions in
 * auto-commit mode, so each update is one transaction in the binlog: {@code applyClients} sequences
 * of ids, run by the server itself for a backlog ({@link #write}) or sent by as many connections
 * while a pipeline streams ({@link #stream}). An update's id is uniform over all rows, or, for a
 * share of the transactions, one of {@code hotKeys} hot ids spread over the table. The ids a backlog touched are kept:
 * their final
 * rows are what the target's own write of the backlog writes. The kafka scenario writes the same
 * backlog into a table of its own.
 */
final class ApplyWorkload {

	/** The apply scenario's table. */
	static final TableId SOURCE_TABLE = new TableId("sbtest", "sbtest1");

	private final TestDatabaseServer server;

	private final TableId table;

	private final int rows;

	private final int clients;

	private final int hotKeys;

	/** The workload on a table, created in a schema of its own by {@link #load()}. */
	ApplyWorkload(TestDatabaseServer server, TableId table, int rows, int clients, int hotKeys) {
		this.server = server;
		this.table = table;
		this.rows = rows;
		this.clients = clients;
		this.hotKeys = hotKeys;
	}

	TableId table() {
		return this.table;
	}

	int rows() {
		return this.rows;
	}

	int hotKeys() {
		return this.hotKeys;
	}

	/**
	 * Creates the table ({@code sbtest.sbtest1}) as sysbench does and fills it with 1,000-row inserts.
	 * @return seconds taken
	 */
	double load() throws SQLException {
		this.server.createSchema(this.table.schema());
		long started = System.nanoTime();
		try (Connection connection = this.server.dataSource(null).getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + this.table.quoted() + " (id INT NOT NULL AUTO_INCREMENT, "
					+ "k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
					+ "PRIMARY KEY (id), KEY k_1 (k)) ENGINE = InnoDB");
		}
		SysbenchRows.load(this.server.dataSource(null), this.table.quoted(), this.rows, 7);
		return (System.nanoTime() - started) / 1e9;
	}

	/** The {@code index}-th hot id: hot ids are spread evenly over the table. */
	int hotId(int index) {
		return 1 + index * (this.rows / this.hotKeys);
	}

	/**
	 * Writes a backlog of {@code count} auto-commit updates as fast as the server commits them: the
	 * ids {@link #stream} would send, run by the server itself ({@link ServerSideUpdates}).
	 * @param hotShare share of the updates that hit a hot id: 0 for uniform ids only, 1 for hot ids
	 * only
	 * @param seed seed of the clients' random ids
	 * @return how long the updates took and which ids they touched
	 */
	Backlog write(int count, double hotShare, long seed) throws Exception {
		List<int[]> perClient = new ArrayList<>();
		BitSet touched = new BitSet(this.rows + 1);
		for (int client = 0; client < this.clients; client++) {
			int[] ids = new int[share(count, client)];
			Random random = new Random(seed + client);
			for (int i = 0; i < ids.length; i++) {
				ids[i] = nextId(random, hotShare);
				touched.set(ids[i]);
			}
			perClient.add(ids);
		}
		return new Backlog(count, hotShare, ServerSideUpdates.run(this.server, this.table, perClient), touched);
	}

	/**
	 * Runs {@code count} auto-commit updates from the clients without batching, at the pace a
	 * client's round trips set: the load on a source that is being streamed.
	 * @param hotShare share of the updates that hit a hot id: 0 for uniform ids only, 1 for hot ids
	 * only
	 * @param seed seed of the clients' random ids
	 * @return how long it took and which ids it touched
	 */
	Backlog stream(int count, double hotShare, long seed) throws Exception {
		String url = "jdbc:mysql://" + this.server.host() + ":" + this.server.port() + "/?useSSL=false"
				+ "&allowPublicKeyRetrieval=true";
		String sql = "UPDATE " + this.table.quoted() + " SET k = k + 1 WHERE id = ?";
		ExecutorService pool = Executors.newFixedThreadPool(this.clients);
		long started = System.nanoTime();
		BitSet touched = new BitSet(this.rows + 1);
		try {
			List<Future<BitSet>> done = new ArrayList<>();
			for (int client = 0; client < this.clients; client++) {
				int mine = share(count, client);
				Random random = new Random(seed + client);
				done.add(pool.submit(() -> {
					BitSet ids = new BitSet(this.rows + 1);
					try (Connection connection = DriverManager.getConnection(url, this.server.username(),
							this.server.password()); PreparedStatement update = connection.prepareStatement(sql)) {
						connection.setAutoCommit(true);
						for (int i = 0; i < mine; i++) {
							int id = nextId(random, hotShare);
							ids.set(id);
							update.setInt(1, id);
							update.executeUpdate();
						}
					}
					return ids;
				}));
			}
			for (Future<BitSet> future : done) {
				touched.or(future.get());
			}
		}
		finally {
			pool.shutdown();
		}
		return new Backlog(count, hotShare, (System.nanoTime() - started) / 1e9, touched);
	}

	/** How many of {@code count} updates a client runs. */
	private int share(int count, int client) {
		return count / this.clients + ((client < count % this.clients) ? 1 : 0);
	}

	/** A uniform or a hot id; the share is drawn only for a mix, so the pure shapes keep their sequences. */
	private int nextId(Random random, double hotShare) {
		boolean hot = (hotShare >= 1) || (hotShare > 0 && random.nextDouble() < hotShare);
		return hot ? hotId(random.nextInt(this.hotKeys)) : 1 + random.nextInt(this.rows);
	}

	/**
	 * A backlog as written.
	 *
	 * @param transactions update transactions in it
	 * @param hotShare share of them that hit a hot id
	 * @param seconds how long writing it took
	 * @param touched the ids it updated
	 */
	record Backlog(int transactions, double hotShare, double seconds, BitSet touched) {

		/** Distinct ids updated: the rows the backlog's final state consists of. */
		int distinctKeys() {
			return this.touched.cardinality();
		}

	}

}
