package io.tributary.test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small {@code /bin/sh} process that ends an embedded server when the JVM that started it dies.
 *
 * <p>The watchdog blocks reading its standard input, a pipe whose only writer is this JVM. When the
 * JVM ends in any way, SIGKILL included, the kernel closes that pipe and the read returns; the
 * watchdog then sends the server SIGTERM (a clean shutdown), SIGKILL if it still runs after 60
 * seconds, and deletes the server's directory once it has exited. Before each signal it checks that
 * the pid still carries the server's {@code --datadir=} argument, so a recycled pid is never hit.
 * {@link #release()} tells it the owner has stopped the server itself, and it exits doing nothing.
 *
 * <p>It ignores SIGINT, SIGHUP and SIGQUIT, which a terminal sends to the whole process group, so
 * that Ctrl-C on a build leaves it running for as long as the JVM's own shutdown takes.
 */
final class ServerWatchdog {

    private static final String RELEASE = "release";

    private static final String SCRIPT = String.join("\n",
            "trap '' INT HUP QUIT",
            "pid=$1",
            "marker=$2",
            "dir=$3",
            "IFS= read -r word",
            "if [ \"$word\" = " + RELEASE + " ]; then exit 0; fi",
            "running() { tr '\\000' '\\n' 2>/dev/null < \"/proc/$pid/cmdline\" | grep -qxF -e \"$marker\"; }",
            "if running; then",
            "  kill -TERM \"$pid\" 2>/dev/null",
            "  i=0",
            "  while running && [ \"$i\" -lt 60 ]; do sleep 1; i=$((i + 1)); done",
            "  if running; then kill -KILL \"$pid\" 2>/dev/null; fi",
            "  i=0",
            "  while running && [ \"$i\" -lt 10 ]; do sleep 1; i=$((i + 1)); done",
            "fi",
            "if ! running; then rm -rf -- \"$dir\"; fi",
            "");

    private final Process process;

    /** Held, never written until release: closing it is the signal that this JVM is gone. */
    private final OutputStream ownerAlive;

    private ServerWatchdog(Process process) {
        this.process = process;
        this.ownerAlive = process.getOutputStream();
    }

    /**
     * Starts a watchdog for a running server.
     *
     * @param serverPid the server's process id
     * @param dataDirArgument the exact {@code --datadir=...} argument on the server's command line
     * @param directory the directory to delete once the server has exited
     */
    static ServerWatchdog start(long serverPid, String dataDirArgument, Path directory) throws IOException {
        Process process = new ProcessBuilder("/bin/sh", "-c", SCRIPT, "tributary-server-watchdog",
                Long.toString(serverPid), dataDirArgument, directory.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        return new ServerWatchdog(process);
    }

    /** Tells the watchdog to exit without touching the server; call once the server has stopped. */
    void release() {
        try {
            ownerAlive.write((RELEASE + "\n").getBytes(StandardCharsets.US_ASCII));
            ownerAlive.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (IOException e) {
            // The watchdog is gone already; there is nothing to release.
            process.destroy();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
        }
    }
}
