/**
 * One pipeline per source server: table lifecycle (snapshotting, catching up, streaming, paused,
 * failed, dropped, copied once), the catch-up loop, per-table control and graceful stop.
 *
 * <p>{@link io.tributary.pipeline.Pipeline} is the facade; the work is split by job:
 * {@code Startup} and {@code TableSetup} prepare tables and choose where the stream starts,
 * {@code CatchUpLoop} drains, applies, confirms and checkpoints, {@code SnapshotQueue} copies
 * tables one after another, {@code ChecksumRuns} compares source and target, {@code FlushApi}
 * holds the waits callers use, {@code TableControl} pauses, resumes, resnapshots and restarts one
 * table, and {@code SourceEvents} routes what the binlog reader sees, with {@code TableRenames}
 * following a table renamed within the rules under its new name. {@code PipelineRuntime} is
 * what they share, and {@code TableRuntime} one table's state, with {@code TableIntake} (whether
 * it takes changes now) and {@code TableWiring} (what it writes with); each owns its fields, and
 * the other parts change them only through named transitions; {@code CycleSignal} wakes the
 * catch-up loop early. {@code FlushTotals} keeps each table's flush totals for the status, and
 * {@code TableTimeline} its recent events (phase changes, actions and who asked, waits for buffer
 * room, failed flushes, schema changes, checksum results), at most 200 a table, and
 * {@code TableChecksums} its latest and queued checksum passes.
 * {@code ReplicationRun} runs a full cycle at every flush interval or on request, and an early one
 * whenever the reader reports that it has read everything the source sent
 * ({@code cdc.flush.when-idle}); an early cycle leaves recently written keys buffered, and a wait
 * for "everything flushed" counts full cycles only. {@code ReplicationRun} holds these parts for
 * one run: the pipeline's whole life without HA, one term of leadership with it; {@code CurrentRun} holds the run the
 * facade's calls go to and makes
 * the next one with the same observers; {@code LeaderLoop} waits as a standby, runs a term while
 * leading and goes back to standby when the term is lost.
 *
 * <p>Invariant (phases): a table's phase changes only along {@code Phase.mayMoveTo}, in
 * {@code TableRuntime.enter}; a table is held, or waits for the reader's rewind, while an action
 * sets it up again, and takes no changes meanwhile ({@code TableIntake.isOpen}); a table activated
 * after a cycle read the activation count sits that cycle out ({@code TableIntake.activatedAfter}).
 *
 * <p>Invariant (copied once): a table of snapshot mode {@code ONLY} ends at a transaction boundary
 * the reader and the control thread agree on under the intake's lock ({@code TableIntake.endBy}):
 * it takes the whole of every transaction before the end and nothing from it on, so once its buffer
 * is applied its target equals the source table at the end; its checkpoint records the end before
 * the table shows {@code COPIED}, so a restart finds it ended and leaves it so.
 *
 * <p>Invariant (HA): a run writes rows and checkpoints only through its term's fence, loads the
 * checkpoints only after it leads, and once its term is lost applies nothing more.
 *
 * <p>Invariant (bounded memory): {@code CatchUpLoop} settles every drain once its apply has ended,
 * whether it succeeded, failed (after putting its changes back) or threw, so the reader waiting for
 * room is woken by the control thread, which never waits for the reader. Every buffer of a run
 * counts against the run's one budget ({@code PipelineRuntime.bufferBudget}); a table that takes a
 * new buffer retires the old one ({@code TableWiring.bufferInto}), which gives its bytes back.
 *
 * <p>Invariant (confirm bound): the position confirmed for a table is
 * {@code min(delivered, oldest pending)}, with delivered read before the buffer is drained, so it
 * never passes a change that is still buffered, deferred or being applied.
 *
 * <p>A table going to a sink (its mapping names a {@code TableSink}: the {@code ChangeListener} in
 * listener mode, or a Kafka topic) is held to the same bound: a drain the sink refused is put back
 * into the buffer, so the confirmed position and the checkpoint stay before it until the sink
 * accepts it, and a snapshot chunk it refused is offered again and never lands before it does. The
 * pipeline talks to a sink only through {@code SinkApplier}, never through its concrete type.
 */
package io.tributary.pipeline;
