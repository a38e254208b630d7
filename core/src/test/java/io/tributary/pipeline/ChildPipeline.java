package io.tributary.pipeline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import io.tributary.name.TableId;
import io.tributary.test.Await;
import io.tributary.test.ServerWatchdog;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;

/**
 * A pipeline running in a child JVM ({@link PipelineProcess}) on the test server, for tests that kill
 * it, stall it or run several at once. Its status lines arrive as {@link ChildStatus}; its whole
 * output, log included, goes to {@link #log()}.
 *
 * <pre>{@code
 * try (ChildPipeline child = ChildPipeline.start(db, replication.settings())) {
 *     child.killWhen((s) -> s.table("orders").rowsCopied() >= 5_000, 0);
 *     ChildStatus last = child.awaitKilled(Duration.ofMinutes(2));   // what it was doing when it died
 * }
 * }</pre>
 *
 * <p>The child never outlives the test: {@link #close()} kills it (by its pid, with SIGKILL), it ends
 * by itself when its standard input closes, which the death of this JVM does, and a
 * {@link ServerWatchdog} kills it when this JVM dies while the child is stopped with SIGSTOP and so
 * cannot notice.
 */
final class ChildPipeline implements AutoCloseable {

	private final Process process;

	private final Path directory;

	private final Path log;

	private final ServerWatchdog watchdog;

	private final PrintWriter commands;

	private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

	private final Thread reader;

	private volatile ChildStatus status;

	private volatile ChildSample sample;

	private volatile Predicate<ChildStatus> killTrigger;

	private volatile long killDelayNanos;

	private volatile ChildStatus triggeredBy;

	private ChildPipeline(Process process, Path directory, ServerWatchdog watchdog) {
		this.process = process;
		this.directory = directory;
		this.log = directory.resolve("child.log");
		this.watchdog = watchdog;
		this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
		this.reader = new Thread(this::readOutput, "child-pipeline-" + process.pid());
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Starts a pipeline with {@code settings} in a child JVM, connecting to the test server as its test
	 * user; its log goes to a new directory under {@code target/child-pipelines}.
	 */
	static ChildPipeline start(TestDatabase db, PipelineSettings settings) throws IOException {
		return start(db, null, settings);
	}

	/**
	 * Starts a pipeline with {@code settings} in a child JVM that reads the source on {@code source},
	 * a server the test started for itself (the shared one when {@code null}), and writes to the
	 * test server.
	 */
	static ChildPipeline start(TestDatabase db, TestDatabaseServer source, PipelineSettings settings)
			throws IOException {
		return start(db, source, settings, List.of());
	}

	/** Starts a child as above, with more {@link PipelineProcess} arguments. */
	static ChildPipeline start(TestDatabase db, TestDatabaseServer source, PipelineSettings settings,
			List<String> arguments) throws IOException {
		Path parent = Files.createDirectories(Path.of("target", "child-pipelines"));
		Path directory = Files.createTempDirectory(parent, "child-").toAbsolutePath();
		String marker = "-Dtributary.child.dir=" + directory;
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				marker, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				PipelineProcess.class.getName(), "jdbc-url=" + db.jdbcUrl(null), "user=" + db.server().username(),
				"password=" + db.server().password()));
		if (source != null) {
			command.add("source-jdbc-url=" + source.jdbcUrl(null));
		}
		command.addAll(PipelineProcess.arguments(settings));
		command.addAll(arguments);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		ServerWatchdog watchdog;
		try {
			watchdog = ServerWatchdog.start(process.pid(), marker, directory);
		}
		catch (IOException | RuntimeException ex) {
			process.destroyForcibly();
			throw ex;
		}
		return new ChildPipeline(process, directory, watchdog);
	}

	/** The child's process id. */
	long pid() {
		return this.process.pid();
	}

	/** Everything the child printed, its log included. */
	Path log() {
		return this.log;
	}

	/** The child's latest status line, {@code null} before the first. */
	ChildStatus status() {
		return this.status;
	}

	/** Whether the child's process is running (or stopped with SIGSTOP). */
	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Waits until a status line meets {@code condition} and returns it.
	 * @throws AssertionError when the child ends first or the wait runs out, naming the log
	 */
	ChildStatus awaitStatus(String what, Predicate<ChildStatus> condition, Duration timeout) throws Exception {
		return Await.value(what + " (child log " + this.log + ")", timeout, () -> {
			ChildStatus now = this.status;
			if (now == null || !condition.test(now)) {
				if (!this.process.isAlive()) {
					throw new AssertionError("Child pipeline ended (exit " + this.process.exitValue() + ") before "
							+ what + "; its last status: " + now + "; its log: " + this.log);
				}
				return null;
			}
			return now;
		}, (found) -> found != null);
	}

	/**
	 * Kills the child with SIGKILL as soon as it prints a status line that meets {@code trigger},
	 * {@code delayNanos} after reading it. The trigger sees every line from the next one on, one at a
	 * time on the thread that reads the child's output, so it may keep state, and no poll interval
	 * comes between the line and the kill.
	 */
	void killWhen(Predicate<ChildStatus> trigger, long delayNanos) {
		this.killDelayNanos = delayNanos;
		this.killTrigger = trigger;
	}

	/**
	 * Waits for the kill {@link #killWhen} asked for, and for the child's output to end, and returns
	 * the last status line it printed: what it was doing when it died.
	 */
	ChildStatus awaitKilled(Duration timeout) throws Exception {
		Await.until("the kill trigger (child log " + this.log + ")", timeout, () -> {
			if (this.triggeredBy == null && !this.process.isAlive()) {
				throw new AssertionError("Child pipeline ended (exit " + this.process.exitValue()
						+ ") before its kill trigger; its last status: " + this.status + "; its log: " + this.log);
			}
			return this.triggeredBy != null;
		});
		awaitExit(timeout);
		return this.status;
	}

	/** Kills the child with SIGKILL now and waits until it and its output have ended. */
	void kill() throws InterruptedException {
		sigkill();
		awaitExit(Duration.ofMinutes(1));
	}

	/**
	 * Sends SIGKILL through the process handle: {@link Process#destroyForcibly()} also closes the
	 * pipe of the child's output, and the lines it printed last would be lost.
	 */
	private void sigkill() {
		this.process.toHandle().destroyForcibly();
	}

	/** Stops the child with SIGSTOP: it holds its connections and does nothing until {@link #continueProcess()}. */
	void stopProcess() throws IOException, InterruptedException {
		signal("-STOP");
	}

	/** Lets a child stopped with {@link #stopProcess()} run again (SIGCONT). */
	void continueProcess() throws IOException, InterruptedException {
		signal("-CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", signal, Long.toString(this.process.pid())).inheritIO().start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill " + signal + " " + this.process.pid() + " failed");
		}
	}

	/** Closes the child's standard input, as the death of this JVM would: the child ends at once. */
	void endInput() {
		this.commands.close();
	}

	/** The exit value of the ended child. */
	int exitValue() {
		return this.process.exitValue();
	}

	/** Asks the child to run a checksum pass of a table; returns once it has accepted or refused. */
	void checksum(TableId table) throws InterruptedException {
		command("checksum " + table);
	}

	/**
	 * Asks the child to collect garbage and returns its heap used after that, its live threads, its
	 * lag and its leadership.
	 */
	ChildSample sample() throws InterruptedException {
		command("gc");
		return this.sample;
	}

	/** Stops the child's pipeline gracefully (final flush and checkpoint) and waits for the child to exit. */
	void stop(Duration timeout) throws InterruptedException {
		command("stop");
		awaitExit(timeout);
	}

	private void command(String command) throws InterruptedException {
		this.commands.println(command);
		String reply = this.replies.poll(1, TimeUnit.MINUTES);
		if (reply == null || !reply.equals("@ok " + command)) {
			throw new IllegalStateException("Child refused " + command + ": " + reply + "; its log: " + this.log);
		}
	}

	private void awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new AssertionError("Child pipeline " + this.process.pid() + " still runs after " + timeout);
		}
		// Its last lines are in the pipe still; the reader ends at their end.
		this.reader.join(timeout.toMillis());
	}

	private void readOutput() {
		try (BufferedReader in = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
				OutputStream file = Files.newOutputStream(this.log)) {
			String line;
			while ((line = in.readLine()) != null) {
				file.write((line + "\n").getBytes(StandardCharsets.UTF_8));
				if (line.startsWith(ChildStatus.PREFIX)) {
					ChildStatus now = ChildStatus.parse(line);
					this.status = now;
					Predicate<ChildStatus> trigger = this.killTrigger;
					if (trigger != null && this.triggeredBy == null && trigger.test(now)) {
						fire(now);
					}
				}
				else if (line.startsWith(ChildSample.PREFIX)) {
					// Read before the command's reply, which follows it on the same stream.
					this.sample = ChildSample.parse(line);
				}
				else if (line.startsWith("@ok ") || line.startsWith("@refused ")) {
					this.replies.add(line);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void fire(ChildStatus now) {
		this.triggeredBy = now;
		long delay = this.killDelayNanos;
		if (delay > 0) {
			// The delay picks the moment of the kill within what the trigger saw begin; it waits for nothing.
			LockSupport.parkNanos(delay);
		}
		sigkill();
	}

	/** Kills the child if it still runs (SIGKILL, by its pid) and ends its watchdog; keeps the log. */
	@Override
	public void close() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(1, TimeUnit.MINUTES);
		this.watchdog.release();
		this.commands.close();
	}

}
