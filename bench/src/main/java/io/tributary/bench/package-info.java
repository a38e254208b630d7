/**
 * Reproducible benchmarks, run by one command ({@link io.tributary.bench.BenchRun}; see
 * bench/README.md): every scenario on each embedded server, each figure beside a reference
 * measured in the same run, written to a dated Markdown and CSV file under {@code bench/results}.
 *
 * <p>Invariants: every tool is checked before anything is measured; servers stop and the JVM ends
 * whatever happens; a ratio only ever sets figures of the same run against each other; backlog
 * readers and the memory runs go in JVMs of their own ({@link io.tributary.bench.ReaderJvm}), so a
 * cold read is the first of its JVM, a heap holds only what is measured, and Tributary's binlog
 * client never shares a class path with Debezium's fork of it; each server's native replica
 * ({@link io.tributary.bench.NativeReplica}) is shared by its scenarios and stopped before the next
 * server's run. Tests never assert on time: the smoke test only checks that every scenario
 * produced its figures.
 */
package io.tributary.bench;
