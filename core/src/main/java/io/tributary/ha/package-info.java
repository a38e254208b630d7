/**
 * One active instance per pipeline, and fencing of the instances that no longer lead.
 *
 * <p>Instances of a pipeline with the same settings compete for a named lock on the target
 * ({@code GET_LOCK}, named after the pipeline and the checkpoint table), held on a connection of its
 * own for the whole term of leadership. Beside the checkpoint table, the leader table keeps one row
 * per pipeline: the fencing epoch, the leading instance, the lock's session, the sessions it writes
 * with, and a lease that the leader renews every third of its length on the target's own clock. A
 * stalled leader keeps its connections and so its lock; a standby that finds the lease lapsed ends
 * the lock's session ({@code KILL CONNECTION}), takes the lock, ends the old writer sessions and
 * raises the epoch in one transaction ({@link io.tributary.ha.Leadership}). A writer stalled between
 * proving its term and committing keeps the leader row locked; a standby whose locking read of the
 * row times out ends that leader's writer sessions first, once the lease has lapsed. Ending those
 * sessions, and checking they belong to the same server run, is {@code StalledLeader}'s job.
 *
 * <p>Invariants:
 * <ul>
 * <li>At most one instance holds the lock, and only its holder raises the epoch: epochs name terms
 * of leadership, one instance each, in order.</li>
 * <li>Every target transaction that writes rows or checkpoints proves its term at commit
 * ({@link io.tributary.ha.TargetFence#verify}): it reads the epoch with a shared lock just before
 * committing and rolls back unless the epoch is its own. A takeover raises the epoch under an
 * exclusive lock, so it waits for transactions that already proved their term and every later one
 * sees the new epoch. A writer that lost its term writes nothing: neither rows nor checkpoints.</li>
 * <li>A term once lost stays lost; leading again takes a new term at a higher epoch.</li>
 * <li>Without HA ({@link io.tributary.ha.TargetFence#NONE}) nothing changes: no lock, no table, and
 * writes commit as before.</li>
 * </ul>
 */
package io.tributary.ha;
