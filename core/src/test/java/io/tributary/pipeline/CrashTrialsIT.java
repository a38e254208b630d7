package io.tributary.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.pipeline.CrashTrial.Result;
import io.tributary.pipeline.CrashTrial.Target;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pipeline killed with SIGKILL at a random moment in any phase (the copy, the catch-up, streaming,
 * a flush in progress, a checksum repair) under a workload loses nothing: started again from its
 * checkpoint it brings the target to equal the source row by row. Each trial is a {@link CrashTrial}.
 *
 * <p>System properties: {@code tributary.crash.trials} trials per phase (2; the {@code crash-trials}
 * profile runs 10), {@code tributary.crash.seed} the seed the trials' seeds derive from (random,
 * printed), {@code tributary.crash.phases} a comma-separated list of the phases to try (all),
 * {@code tributary.crash.replay=PHASE:SEED} runs just the one trial a summary lists. The
 * summary, one row per trial, goes to {@code target/crash-trials-<server>.md}.
 */
@ExtendWith(DatabaseExtension.class)
class CrashTrialsIT {

	private static final List<Result> results = new ArrayList<>();

	private static String server;

	private static long seed;

	@TestFactory
	Stream<DynamicTest> killedPipelineConvergesAfterRestart(TestDatabase db) {
		server = db.server().flavor();
		seed = Long.getLong("tributary.crash.seed", ThreadLocalRandom.current().nextLong());
		System.out.printf("Crash trials on %s with seed %d (-Dtributary.crash.seed=%d)%n", server, seed, seed);
		List<Target> targets = new ArrayList<>();
		List<Long> seeds = new ArrayList<>();
		String replay = System.getProperty("tributary.crash.replay", "");
		if (!replay.isBlank()) {
			String[] parts = replay.split(":");
			targets.add(Target.valueOf(parts[0]));
			seeds.add(Long.parseLong(parts[1]));
		}
		else {
			SplittableRandom seeds0 = new SplittableRandom(seed);
			int trials = Integer.getInteger("tributary.crash.trials", 2);
			String phases = System.getProperty("tributary.crash.phases", "");
			for (int i = 0; i < trials; i++) {
				for (Target target : Target.values()) {
					long trialSeed = seeds0.nextLong();
					if (phases.isBlank() || Arrays.asList(phases.split(",")).contains(target.name())) {
						targets.add(target);
						seeds.add(trialSeed);
					}
				}
			}
		}
		return Stream.iterate(0, (i) -> i < targets.size(), (i) -> i + 1).map((i) -> {
			Target target = targets.get(i);
			long trialSeed = seeds.get(i);
			return DynamicTest.dynamicTest("#" + (i + 1) + " " + target + " seed " + trialSeed, () -> {
				System.out.printf("Trial %d: %s, -Dtributary.crash.replay=%s:%d%n", i + 1, target, target, trialSeed);
				Result result;
				try {
					result = new CrashTrial(db, "crash" + (i + 1), target, trialSeed).run();
				}
				catch (Exception | AssertionError ex) {
					record(new Result(target, trialSeed, "?", false, "", "failed: " + ex, 0));
					throw ex;
				}
				record(result);
				System.out.println("Trial " + (i + 1) + ": " + result);
				assertThat(result.outcome()).as("target after the restart (replay with -Dtributary.crash.replay=%s:%d)",
						target, trialSeed).isEqualTo("ok");
			});
		});
	}

	private static synchronized void record(Result result) {
		results.add(result);
	}

	@AfterAll
	static void writeSummary() throws IOException {
		if (server == null || results.isEmpty()) {
			return;
		}
		StringBuilder md = new StringBuilder("# Crash trials on " + server + "\n\nSeed " + seed
				+ ". Replay a trial with `-Dtributary.crash.replay=PHASE:SEED`.\n\n");
		md.append("| phase | trials | hit | failed |\n| --- | ---: | ---: | ---: |\n");
		Map<Target, int[]> totals = new EnumMap<>(Target.class);
		for (Result result : results) {
			int[] counts = totals.computeIfAbsent(result.target(), (t) -> new int[3]);
			counts[0]++;
			counts[1] += result.targetHit() ? 1 : 0;
			counts[2] += result.ok() ? 0 : 1;
		}
		totals.forEach((target, counts) -> md.append("| ").append(target).append(" | ").append(counts[0]).append(" | ")
			.append(counts[1]).append(" | ").append(counts[2]).append(" |\n"));
		md.append("\n| # | phase | seed | kill when | hit | outcome | s |\n| ---: | --- | ---: | --- | --- | --- | ---: |\n");
		for (int i = 0; i < results.size(); i++) {
			Result r = results.get(i);
			md.append("| ").append(i + 1).append(" | ").append(r.target()).append(" | ").append(r.seed()).append(" | ")
				.append(r.moment()).append(" | ").append(r.hit()).append(r.targetHit() ? "" : " (missed)").append(" | ")
				.append(shortened(r.outcome())).append(" | ").append(r.seconds()).append(" |\n");
		}
		Path file = Path.of("target", "crash-trials-" + server + ".md");
		Files.createDirectories(file.getParent());
		// Differences quote row values, which a cut may leave with half a character: replace, never fail.
		Files.write(file, md.toString().getBytes(StandardCharsets.UTF_8));
		System.out.println(md);
	}

	/** An outcome on one table row; the whole of it is in the test's output. */
	private static String shortened(String outcome) {
		String line = outcome.replace('|', '/').replace('\n', ' ');
		return (line.length() > 200) ? line.substring(0, 200) + "..." : line;
	}

}
