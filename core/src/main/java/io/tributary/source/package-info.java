/**
 * What a change source is: {@link Position} (a transaction boundary in the binlog, totally
 * ordered, round-tripping through text), {@link RowChange} (a full row image or a key deletion),
 * the handler that receives them in binlog order, and {@link StartPoint} (where a table that is
 * not copied starts, as a user names it).
 *
 * <p>Invariants: a position handed out as delivered is never inside a transaction, so a reader
 * restarted there reads whole transactions only; a position read from a server names that server's
 * {@code server_id}, so its file and offset are never taken for a place in another server's
 * binary log.
 */
package io.tributary.source;
