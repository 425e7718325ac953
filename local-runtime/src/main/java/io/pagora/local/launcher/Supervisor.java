package io.pagora.local.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The platform's processes: each started in a session of its own (a Ctrl-C in the terminal does not reach
 * it; {@code down} stops it by its pid), its output appended to {@code var/log/<name>.log}, its pid in
 * {@code var/run/<name>.pid}. Every wait is bounded and names what it waited for.
 */
public final class Supervisor {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final int CONNECT_TIMEOUT_MS = 1000;
    private static final long POLL_MS = 500;

    private final Layout layout;

    public Supervisor(Layout layout) {
        this.layout = layout;
    }

    /** A started process and where its output of this run starts in its log (readiness is looked for from there). */
    public record Launched(Process process, long logOffset) {}

    /** Begins the line each start appends to its process's log: what follows the last one is the running process's. */
    public static final String START_MARKER = "==== ";

    public Launched launch(String name, List<String> command, Map<String, String> environment, boolean ownSession) {
        Path log = layout.log(name);
        try {
            Files.createDirectories(layout.run());
            Files.createDirectories(layout.log());
            long offset = Files.exists(log) ? Files.size(log) : 0;
            Files.writeString(
                    log,
                    (START_MARKER + "%s starting: %s%n")
                            .formatted(LocalDateTime.now().format(STAMP), String.join(" ", command)),
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            List<String> full = new ArrayList<>();
            if (ownSession && Files.isExecutable(Path.of("/usr/bin/setsid"))) {
                // The child of a JVM is no process-group leader, so setsid execs in place: the pid stays the child's.
                full.add("/usr/bin/setsid");
            }
            full.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().putAll(environment);
            Process process = builder.start();
            Files.writeString(pidFile(name), Long.toString(process.pid()));
            return new Launched(process, offset);
        } catch (IOException e) {
            throw Console.fail("could not start %s: %s", name, e.getMessage());
        }
    }

    public Path pidFile(String name) {
        return layout.run().resolve(name + ".pid");
    }

    public Optional<Long> pid(String name) {
        Path file = pidFile(name);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException unreadable) {
            return Optional.empty();
        }
    }

    public boolean alive(String name) {
        return pid(name).flatMap(ProcessHandle::of).map(ProcessHandle::isAlive).orElse(false);
    }

    /** SIGTERM, then SIGKILL after {@code seconds}; the pid file goes either way. */
    public void stop(String name, int seconds) {
        Optional<ProcessHandle> handle = pid(name).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (handle.isPresent()) {
            Console.say("stopping %s (pid %d)", name, handle.get().pid());
            handle.get().destroy();
            if (!waitUntil(() -> !handle.get().isAlive(), seconds * 1000L)) {
                Console.warn("%s did not stop within %ds: killing it", name, seconds);
                handle.get().destroyForcibly();
                waitUntil(() -> !handle.get().isAlive(), 10_000);
            }
        }
        delete(pidFile(name));
    }

    /** A signal Java has no call for (STOP, CONT, KILL by number), by the kill command. */
    public void signal(String name, String signal) {
        long pid = pid(name).orElseThrow(() -> Console.fail("%s is not running", name));
        int status = Exec.run(List.of("kill", "-" + signal, Long.toString(pid)));
        if (status != 0) {
            throw Console.fail("could not send SIG%s to %s (pid %d)", signal, name, pid);
        }
    }

    public static boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(Layout.HOST, port), CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    /** Refuses to start on a port something else holds: its data would not be ours. */
    public static void requireFreePort(String name, int port) {
        if (portOpen(port)) {
            throw Console.fail(
                    "port %d (for %s) is already in use by another process; stop it or run"
                            + " 'infra/local/pagora down'",
                    port, name);
        }
    }

    public void waitForPort(String name, int port, int seconds) {
        waitForReadiness(name, () -> portOpen(port), seconds, "open port " + port);
    }

    /** Until the log of this run (from {@code offset}) holds {@code text}. */
    public void waitForLogLine(String name, long offset, String text, int seconds) {
        waitForReadiness(name, () -> logSince(name, offset).contains(text), seconds, "say '" + text + "'");
    }

    private void waitForReadiness(String name, Check ready, int seconds, String what) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!ready.holds()) {
            if (!alive(name)) {
                System.err.println(tail(layout.log(name), 30));
                throw Console.fail("%s exited during startup (log: %s)", name, layout.log(name));
            }
            if (System.nanoTime() > deadline) {
                throw Console.fail("%s did not %s within %ds (log: %s)", name, what, seconds, layout.log(name));
            }
            sleep(1000);
        }
    }

    String logSince(String name, long offset) {
        Path log = layout.log(name);
        try {
            byte[] bytes = Files.readAllBytes(log);
            int from = (int) Math.min(offset, bytes.length);
            return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        } catch (IOException missing) {
            return "";
        }
    }

    public static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException unreadable) {
            return "";
        }
    }

    public interface Check {
        boolean holds();
    }

    public static boolean waitUntil(Check condition, long timeoutMs) {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(POLL_MS);
        }
        return true;
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted");
        }
    }

    public static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
