package io.tributary.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Java Flight Recorder for the scenarios: records a stretch of this JVM with the JDK's
 * {@code profile} settings into a {@code .jfr} file, and tells the hot methods of a recording: the
 * methods most often on top of the stack in its {@code jdk.ExecutionSample} events, with their
 * share of all samples.
 */
final class Profiles {

	private Profiles() {
	}

	/**
	 * Runs a task under a recording of this JVM and writes the recording to a file.
	 * @param file where to write the recording
	 * @param task what to record
	 * @return what the task returned
	 */
	static <T> T record(Path file, Callable<T> task) throws Exception {
		Configuration profile;
		try {
			profile = Configuration.getConfiguration("profile");
		}
		catch (IOException | ParseException ex) {
			throw new IllegalStateException("The JDK's 'profile' settings for Flight Recorder cannot be read", ex);
		}
		try (Recording recording = new Recording(profile)) {
			recording.setToDisk(true);
			recording.start();
			try {
				return task.call();
			}
			finally {
				recording.stop();
				recording.dump(file);
			}
		}
	}

	/**
	 * Returns the methods most often on top of the sampled stacks, busiest first.
	 * @param file a recording
	 * @param limit how many methods at most
	 * @return one line per method: share of the samples, samples, method
	 */
	static List<String> hotMethods(Path file, int limit) throws IOException {
		Map<String, Integer> counts = new HashMap<>();
		int total = 0;
		try (RecordingFile recording = new RecordingFile(file)) {
			while (recording.hasMoreEvents()) {
				RecordedEvent event = recording.readEvent();
				if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
					continue;
				}
				RecordedStackTrace stack = event.getStackTrace();
				if (stack == null || stack.getFrames().isEmpty()) {
					continue;
				}
				RecordedFrame top = stack.getFrames().get(0);
				RecordedMethod method = top.getMethod();
				counts.merge(method.getType().getName() + "." + method.getName(), 1, Integer::sum);
				total++;
			}
		}
		int samples = total;
		return counts.entrySet().stream()
			.sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
			.limit(limit)
			.map((entry) -> String.format("%5.1f%% %6d %s", 100.0 * entry.getValue() / samples, entry.getValue(),
					entry.getKey()))
			.toList();
	}

}
