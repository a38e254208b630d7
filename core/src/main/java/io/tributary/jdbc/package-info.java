/**
 * JDBC plumbing shared by every package that talks to the source or the target: session setup
 * ({@link io.tributary.jdbc.Sessions}) and what kind of failure an SQL error is
 * ({@link io.tributary.jdbc.SqlErrors}, {@link io.tributary.jdbc.PermanentFailure}).
 *
 * <p>Invariants:
 * <ul>
 * <li>Every connection that reads or writes rows is set up by {@code Sessions} first: UTC session
 * time zone on both sides, and on the target a strict SQL mode and no foreign key checks, so a
 * value reads and writes the same whichever path carries it.</li>
 * <li>An error is classified by everything chained to it (causes, next exceptions, suppressed
 * errors), the same way for every caller: a deadlock wrapped in another exception is still
 * contention.</li>
 * </ul>
 */
package io.tributary.jdbc;
