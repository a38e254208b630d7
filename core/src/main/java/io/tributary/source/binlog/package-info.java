/**
 * The binlog change source: one replication connection per source server, shared by all its
 * tables, decoding row images only for subscribed tables. {@code BinlogChangeSource} owns the
 * connection and reconnects, with a client {@code ConnectionOptions} makes for each connection
 * (start by GTID or file and offset, TLS, timeouts, heartbeats); {@code TransactionBoundaries}
 * follows the stream and keeps the delivered position; {@code RowEventDispatch} turns row events
 * and schema statements into calls of the change handler; {@code StreamDeserializer} decides what
 * gets decoded; {@code RowsEventDecoder} decodes a subscribed rows event from an
 * {@code ArrayCursor} holding its whole body, and of a before-image only the key; a rows event's
 * table is resolved once ({@code ResolvedTable}), and that answer serves the decoder and the
 * dispatch of the event, and later events, until a subscription changes;
 * {@code PacketAlignedSocket} hands the client one protocol packet per read, so whether everything
 * the source sent has been read is known without a system call; {@code ReadCounters} counts
 * transactions, row changes by kind and what could not be followed, for the status, with atomics
 * and no lock.
 *
 * <p>Invariants: the delivered position moves only at transaction boundaries; a heartbeat moves it
 * only while nothing of a transaction is half read, only forward and only within the file being
 * read, so an idle source still reaches its head; a change is handed over with the boundary
 * before it, which is what the confirm bound is computed from; a row event
 * whose column count differs from the table's layout or its table map stops that table instead of
 * misaligning values, and so does an event that ends inside a value; a lost connection resumes from the delivered
 * boundary, skipping nothing. A rewind (for a
 * table resumed or restarted by an operator) goes back to an earlier boundary between two
 * connections, moves the delivered position back before the handler hears of it, and has every
 * table subscribed before it skip, undecoded, what precedes the boundary the reader had reached.
 *
 * <p>Before anything streams, {@link Preflight} checks the server with {@code BinlogSettingsCheck}
 * (log on, ROW format, FULL images, nothing compressed), {@code PrivilegeCheck} (the replication
 * privileges of the account and its active roles) and {@code TableCheck} (each table exists, is
 * readable, is not a view and has a key). Every problem is reported with its fix; a server-wide
 * problem stops replication, a table problem refuses that table only.
 *
 * <p>Resuming: a position with GTIDs is resumed by them (MySQL auto-positioning, MariaDB
 * {@code slave_connect_state}) unless GTID positioning is turned off, which finds the same place on
 * any server of the replication topology. A file and offset are valid on one server only: every
 * position the reader makes names the {@code server_id} of the server it reads, {@link ResumeCheck}
 * refuses at start a position the source cannot serve (GTIDs it never executed or purged past, a
 * file it no longer has, another server's file and offset), and a connection by file and offset
 * that reaches another server reads nothing.
 *
 * <p>Start points: {@code StartPoints} turns a table's start point (an instant, a file and offset,
 * a GTID set) into a position at a transaction's start, reading binlog files from their start with
 * {@code BinlogWalk}, a non-blocking replica connection of its own under a random
 * {@code server_id}, so the reader's stream is never taken for a duplicate and cut.
 */
package io.tributary.source.binlog;
