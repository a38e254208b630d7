/**
 * Reproducible benchmarks. Each writes its figures to a file under {@code bench/results}; nothing
 * here runs in CI, and no test asserts on time.
 */
package io.tributary.bench;
