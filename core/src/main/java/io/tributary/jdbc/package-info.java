/**
 * JDBC plumbing shared by every package that talks to the source or the target: session setup
 * ({@link io.tributary.jdbc.Sessions}), what kind of failure an SQL error is
 * ({@link io.tributary.jdbc.SqlErrors}, {@link io.tributary.jdbc.PermanentFailure}), the one
 * policy for running failed work again ({@link io.tributary.jdbc.RetryPolicy}), and reading rows
 * into canonical values ({@link io.tributary.jdbc.RowReader}).
 *
 * <p>Invariants:
 * <ul>
 * <li>Every connection that reads or writes rows is set up by {@code Sessions} first: UTC session
 * time zone on both sides, and on the target a strict SQL mode and no foreign key checks, so a
 * value reads and writes the same whichever path carries it.</li>
 * <li>An error is classified by everything chained to it (causes, next exceptions, suppressed
 * errors), the same way for every caller: a deadlock wrapped in another exception is still
 * contention.</li>
 * <li>Only work the server rolled back, and that may run again unchanged, is rerun on contention;
 * it runs a bounded number of times, with pauses that grow and are jittered, so that the two sides
 * of a deadlock do not meet again at once.</li>
 * <li>A row read by a query holds the same objects the binlog decoder produces for it.</li>
 * </ul>
 */
package io.tributary.jdbc;
