/**
 * Writing to the target: idempotent multi-row REPLACE for row images and DELETE by key, the
 * creation or verification of target tables, parallel application of a drain in key-disjoint
 * statements partitioned by the most clustered unique secondary index, and the alternatives to a
 * target table: a {@link TableSink} chosen per table (the {@link ChangeListener}, through
 * {@link ListenerSink}, or a sink of another module such as Kafka), whose {@link SinkApplier}
 * follows the table through an ALTER and a TRUNCATE and reports what it sent. Snapshot chunks
 * and large batches may be streamed with one {@code LOAD DATA LOCAL INFILE ... REPLACE} from
 * memory instead.
 *
 * <p>Invariants: applying the same batch twice changes nothing; a target whose columns or key
 * differ from the source is refused, never written into; statements that run at the same time
 * never share a key; a failed apply leaves nothing assumed applied, and the caller applies the
 * whole drain again; only statements of a table's full size, of a bounded number of placeholders,
 * are prepared as the pool prepares (on a MariaDB target, on the server), so the heap the driver
 * keeps for cached statements stays bounded per connection; a streamed load reads no local file,
 * commits only when it left no warning, and otherwise leaves its rows to statements.
 */
package io.tributary.apply;
