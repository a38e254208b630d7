package io.tributary.status;

import java.time.Instant;
import java.util.List;

/**
 * An immutable snapshot of a pipeline, as {@code /actuator/cdc} returns it.
 *
 * @param name the pipeline's name, under which its checkpoints are kept
 * @param state lifecycle state
 * @param source the source server and the reader's connection
 * @param position delivered and confirmed binlog positions
 * @param lagMillis while the reader is behind the source head: now minus the source timestamp of
 * the newest event read; 0 once it has reached the head
 * @param lagBytes binlog bytes between the confirmed position and the source head, when both are
 * in the same binlog file; {@code null} otherwise
 * @param tables one entry per configured table
 * @param startedAt when the pipeline started, or {@code null}
 * @param lastError the last pipeline-wide error, or {@code null}
 * @param positionsByGtid whether the reader follows the source by GTID (MySQL auto-positioning,
 * MariaDB GTID list), which survives a failover, rather than by binlog file and offset
 * @param counters what the reader and the checkpoint writer did since start
 * @param leadership who leads the pipeline among its instances, or {@code null} without HA
 * @param buffers the memory the buffers of all its tables hold together, against the pipeline's budget
 */
public record PipelineStatus(String name, State state, Source source, Positions position, long lagMillis, Long lagBytes,
		List<TableStatus> tables,
		Instant startedAt, String lastError, boolean positionsByGtid, Counters counters, Leadership leadership,
		Buffers buffers) {

	/** Creates the status of a pipeline whose buffers are not reported. */
	public PipelineStatus(String name, State state, Source source, Positions position, long lagMillis, Long lagBytes,
			List<TableStatus> tables, Instant startedAt, String lastError, boolean positionsByGtid,
			Counters counters, Leadership leadership) {
		this(name, state, source, position, lagMillis, lagBytes, tables, startedAt, lastError, positionsByGtid,
				counters, leadership, Buffers.NONE);
	}

	/** Creates the status of a pipeline without HA. */
	public PipelineStatus(String name, State state, Source source, Positions position, long lagMillis, Long lagBytes,
			List<TableStatus> tables, Instant startedAt, String lastError, boolean positionsByGtid,
			Counters counters) {
		this(name, state, source, position, lagMillis, lagBytes, tables, startedAt, lastError, positionsByGtid,
				counters, null);
	}

	/** Pipeline lifecycle states. */
	public enum State {

		STARTING, RUNNING, STOPPING, STOPPED, FAILED,

		/**
		 * Another instance of the pipeline leads (HA): this one reads and writes nothing, and takes
		 * over when the leader stops or its lease lapses.
		 */
		STANDBY

	}

	/**
	 * The source as seen by the reader.
	 *
	 * @param host host
	 * @param port port
	 * @param serverId server id Tributary registers with
	 * @param flavor {@code MYSQL} or {@code MARIADB}, once known
	 * @param version the source's version, once known
	 * @param gtidMode MySQL's {@code gtid_mode}, or {@code MariaDB GTID}, once known
	 * @param connected whether the binlog connection is up
	 * @param disconnectedSince since when the source has been out of reach, {@code null} while it is
	 * not: once the binlog reader runs, since it lost its connection (or started without one) and has
	 * not connected again, whatever attempts failed in between; while the pipeline is still starting,
	 * since the first of its failed attempts to prepare (check the source, read the checkpoints)
	 * @param reconnects reconnections since start
	 * @param eventsRead binlog events read since start
	 * @param lastError last connection error, or {@code null}
	 */
	public record Source(String host, int port, long serverId, String flavor, String version, String gtidMode,
			boolean connected, Instant disconnectedSince, long reconnects, long eventsRead, String lastError) {

	}

	/**
	 * Binlog positions, as {@code file:offset}.
	 *
	 * @param delivered last transaction boundary whose changes were all handed to the buffers
	 * @param confirmed oldest position any table would resume from (persisted)
	 * @param sourceHead the source's binlog head, read about once a second, or the delivered position
	 * when the reader has read past that in the same file
	 */
	public record Positions(String delivered, String confirmed, String sourceHead) {

	}

	/**
	 * Counters of the stream and the checkpoints since start. Events read again after a reconnect
	 * or a rewind count again.
	 *
	 * @param transactions transactions read from the binlog, each statement outside a transaction
	 * (DDL) counting as one
	 * @param decodeErrors binlog events, or row events of a replicated table, that could not be
	 * decoded
	 * @param schemaMismatches schema changes read from the stream that stopped a table: row images
	 * that no longer fit its layout, an ALTER that cannot be followed, a RENAME or DROP
	 * @param checkpointWrites checkpoint writes that succeeded
	 * @param checkpointFailures checkpoint writes that failed (retried at the next cycle)
	 */
	public record Counters(long transactions, long decodeErrors, long schemaMismatches, long checkpointWrites,
			long checkpointFailures) {

	}

	/**
	 * The buffers of all the pipeline's tables together, against the pipeline's budget.
	 *
	 * @param budgetBytes the budget: bytes held at or above which the reader waits before adding a
	 * change that takes more room; negative when there is none
	 * @param heldBytes estimated bytes of the changes held now by every table, buffered plus being
	 * applied: what the budget bounds
	 * @param parkEvents times the reader waited for room under the budget, over every table (each
	 * table counts its own among its {@link TableStatus.Buffer#parkEvents()})
	 * @param parkedMillis total time the reader waited for room under the budget
	 */
	public record Buffers(long budgetBytes, long heldBytes, long parkEvents, long parkedMillis) {

		/** Not reported: no budget, nothing held or counted. */
		public static final Buffers NONE = new Buffers(-1, 0, 0, 0);

	}

	/**
	 * Leadership among the instances of a pipeline with HA.
	 *
	 * @param instance this instance, as the leader table names it ({@code host/pid/id})
	 * @param leader whether this instance leads
	 * @param epoch the fencing epoch: this instance's term when it leads, else the one it last saw
	 * @param leaderInstance the instance that leads (this one when it leads), as last seen; {@code null}
	 * before any did
	 */
	public record Leadership(String instance, boolean leader, long epoch, String leaderInstance) {

	}

}
