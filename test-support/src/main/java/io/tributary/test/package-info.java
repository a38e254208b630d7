/**
 * Test support for Tributary: a real MySQL or MariaDB server for integration tests, a JUnit 5
 * extension that hands each test class its own schemas, an exact row-by-row table comparison, a
 * concurrent write workload, and the database side of a replication test's fixture: a source and
 * a target schema ({@link io.tributary.test.SchemaPair}, the source possibly on a server of the
 * test's own), generated inserts
 * ({@link io.tributary.test.InsertStatements}), waits with a deadline
 * ({@link io.tributary.test.Await}) and a sampler of the live heap for memory bounds
 * ({@link io.tributary.test.LiveHeapSampler}). The pipeline side of that fixture lives in the core module's
 * tests, since this module cannot depend on the core.
 *
 * <p>Invariants this package guards:
 *
 * <ul>
 *   <li>At most one shared database server runs per JVM ({@link io.tributary.test.TestDatabaseServer#shared()}).
 *       It is started on first use, listens on {@code 127.0.0.1} only, writes a row-based binary log
 *       with full row images (and, on MySQL, GTIDs), and is stopped with all its temporary files
 *       when the JVM exits. Tests that stop, kill or fail over a source start embedded servers of
 *       their own ({@link io.tributary.test.TestDatabaseServer#startDedicated()},
 *       {@link io.tributary.test.TestDatabaseServer#startReplica()}), with the same settings, a
 *       server id of their own, and replicated transactions in their binary log; such a server is
 *       started again on the same port and data directory, and closed by the test or, failing
 *       that, when the JVM exits. The shared server is never stopped by a test. If the environment
 *       variable {@code TRIBUTARY_TEST_JDBC_URL} names an
 *       external server, nothing is started or stopped. A MySQL 8.4 or 9.x container
 *       ({@code tributary.test.db=mysql84|mysql9}, Maven profile {@code mysql-latest}) gets the
 *       same settings and accounts, is published on {@code 127.0.0.1} when the Docker engine is
 *       local, and is never looked for without that property; where no Docker engine is found,
 *       every test that asks for it is skipped, never failed.
 *   <li>An embedded server does not outlive its JVM, even one killed with SIGKILL: its
 *       {@link io.tributary.test.ServerDirectory} has a watchdog process stop it and delete its
 *       files when the JVM is gone, and the next JVM that starts a server ends servers whose owning
 *       JVM has died. A server whose owning JVM is alive is never ended, whichever JVM looks. The
 *       same {@link io.tributary.test.ServerWatchdog} ends other processes a test starts, such as a
 *       pipeline in a child JVM, when the JVM that started them dies.
 *   <li>Test classes that use {@link io.tributary.test.DatabaseExtension} get schemas whose names
 *       derive from the class name, so classes do not see each other's tables; a schema is dropped
 *       and recreated the first time a class asks for it.
 *   <li>{@link io.tributary.test.TableComparison} reports two tables equal only if they hold the
 *       same primary keys and every common column has byte-identical values, NULL being distinct
 *       from every non-NULL value.
 *   <li>{@link io.tributary.test.Workload} counts only committed changes that affected a row, so
 *       its inserts minus its deletes equal the change in the table's row count.
 *   <li>{@link io.tributary.test.Await} never waits past its deadline and never sleeps longer than
 *       one poll between two looks at the condition; a wait that runs out is an
 *       {@link java.lang.AssertionError} naming what was awaited.
 * </ul>
 */
package io.tributary.test;
