package io.tributary.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a run's files go: the results, Flight Recorder and {@code perf} files in the results directory, named
 * after the run; the reader JVMs' logs and scratch files in a work directory of their own, kept
 * after the run so a failure can be looked into.
 *
 * @param results the results directory
 * @param baseName the run's name, for example {@code run-2026-12-01T0800}
 * @param work the work directory
 */
record RunFiles(Path results, String baseName, Path work) {

	static RunFiles create(Path results, String baseName) throws IOException {
		Files.createDirectories(results);
		return new RunFiles(results, baseName, Files.createTempDirectory("tributary-bench-"));
	}

	/** The Flight Recorder file of a labelled stretch of a scenario. */
	Path jfr(String label) {
		return this.results.resolve(this.baseName + "-" + label + ".jfr");
	}

	/** Where a {@code perf} recording of a labelled stretch goes, next to the results. */
	Path perf(String label) {
		return this.results.resolve(this.baseName + "-" + label + ".perf.data");
	}

	/** A file in the work directory. */
	Path scratch(String name) {
		return this.work.resolve(name);
	}

}
