package io.pagora.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A single-replica TigerBeetle cluster run from a local binary (usually {@code TIGERBEETLE_BIN}), formatted
 * fresh in a temporary directory that {@link #close()} deletes. Every module's TigerBeetle tests start
 * their servers through this class (the test-support module), so all of them get the
 * same pin, flags and failure reports:
 *
 * <ul>
 *   <li><b>The pin.</b> The binary is asked its release first; the release is printed, and one older than
 *       {@link TigerBeetleVersion#PIN} is refused before anything is formatted (see {@link TigerBeetleVersion}).
 *   <li><b>The flags.</b> {@code --development} (no Direct IO needed, small grid cache) with production's
 *       1 MiB request limit put back (see {@link #START_FLAGS}).
 *   <li><b>Death is loud and immediate.</b> A watcher thread waits for the process. When it exits (a panic, a
 *       kill) before {@link #close()}, the notice — exit code and the last {@value #LOG_TAIL_LINES} lines of
 *       the log — is printed and kept ({@link #deathNotice()}), and everything registered with
 *       {@link #closeOnDeath} is closed. TigerBeetle's client retries a dead cluster forever; closing it
 *       completes its pending requests at once, so callers blocked in it stop waiting for their deadline.
 * </ul>
 *
 * <p>Needs nothing but the JDK, so modules without Testcontainers can use it.
 */
public final class LocalTigerBeetle implements AutoCloseable {

    public static final String BINARY_VARIABLE = "TIGERBEETLE_BIN";
    /** Why a TigerBeetle variant of a test is SKIPPED (a JUnit assumption) when no binary is configured. */
    public static final String SKIP_REASON = "TigerBeetle variant skipped: set " + BINARY_VARIABLE
            + " to a tigerbeetle " + TigerBeetleVersion.PINNED + " binary (or newer 0.16) to run it";
    /**
     * {@code --development} alone would also shrink the request size, so a batch of
     * {@code Ledger.BATCH_SIZE_MAX} (8189) events would be refused as too much data. The (experimental in
     * 0.16) {@code --limit-request} puts it back to production's 1 MiB, so tests see production's limit.
     */
    public static final List<String> START_FLAGS = List.of("--development", "--experimental", "--limit-request=1MiB");
    /** The cluster id every server here is formatted with. */
    public static final int CLUSTER_ID = 0;

    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS_MAX = 3;
    private static final int LOG_TAIL_LINES = 40;
    /** Clients of one server in a test: a handful; more means a test leaks them. */
    private static final int CLOSE_ON_DEATH_MAX = 1024;

    private final Process process;
    private final Path directory;
    private final Path log;
    private final String address;
    private final String description;
    private final Set<AutoCloseable> closeOnDeath = ConcurrentHashMap.newKeySet();
    /** Set once, before anything is closed, so every failure that follows can say why. */
    private volatile String deathNotice;

    private volatile boolean closing;

    private LocalTigerBeetle(Process process, Path directory, Path log, String address, String description) {
        this.process = process;
        this.directory = directory;
        this.log = log;
        this.address = address;
        this.description = description;
    }

    /** The binary {@code TIGERBEETLE_BIN} names; empty when it is unset or blank. */
    public static Optional<Path> configuredBinary() {
        String binary = System.getenv(BINARY_VARIABLE);
        return binary == null || binary.isBlank() ? Optional.empty() : Optional.of(Path.of(binary));
    }

    /**
     * {@link #start} from the binary {@code TIGERBEETLE_BIN} names; without one, aborts the calling test with a
     * JUnit assumption, so it is reported SKIPPED with {@link #SKIP_REASON} (printed too: a quiet build shows it),
     * never passed silently. A binary that is set but refused or does not start fails the test.
     */
    public static LocalTigerBeetle startOrSkip(String who) {
        Optional<Path> binary = configuredBinary();
        if (binary.isEmpty()) {
            System.out.println("[" + who + "] " + SKIP_REASON);
            Assumptions.abort(SKIP_REASON);
        }
        return start(binary.orElseThrow(), who);
    }

    /**
     * Checks the binary's release, formats a fresh data file and starts a replica on a free loopback port.
     *
     * @param who names the caller in printed lines, e.g. {@code TigerBeetleClearingTest}
     * @throws IllegalStateException if the binary is refused, or does not format or listen; with its log tail
     */
    public static LocalTigerBeetle start(Path binary, String who) {
        TestLane.requireServerLane("TigerBeetle (" + who + ")");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(BINARY_VARIABLE + "=" + binary + " is not an executable file");
        }
        TigerBeetleVersion.requirePinned(binary, who);
        Path directory;
        try {
            directory = Files.createTempDirectory("pagora-tigerbeetle-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Path dataFile = directory.resolve("0_0.tigerbeetle");
            run(
                    List.of(
                            binary.toString(),
                            "format",
                            "--cluster=" + CLUSTER_ID,
                            "--replica=0",
                            "--replica-count=1",
                            "--development",
                            dataFile.toString()),
                    directory.resolve("format.log"));
            LocalTigerBeetle server = startOnFreePort(binary, dataFile, directory);
            server.watch();
            System.out.println("[" + who + "] " + server.description + " at " + server.address);
            return server;
        } catch (RuntimeException e) {
            deleteTree(directory);
            throw e;
        }
    }

    /** The replica address for a client, {@code ip:port}: TigerBeetle's client takes IPs, not host names. */
    public String address() {
        return address;
    }

    public long pid() {
        return process.pid();
    }

    /** The server's stdout and stderr. */
    public Path log() {
        return log;
    }

    public String description() {
        return description;
    }

    /** Null while the server runs (or was stopped by {@link #close()}); else its exit code and log tail. */
    public String deathNotice() {
        return deathNotice;
    }

    /**
     * Closes {@code resource} (a ledger's client) the moment the server dies; at once if it already has.
     * Call {@link #forget} when closing it yourself.
     */
    public void closeOnDeath(AutoCloseable resource) {
        if (closeOnDeath.size() >= CLOSE_ON_DEATH_MAX) {
            throw new IllegalStateException(CLOSE_ON_DEATH_MAX + " clients registered on " + description
                    + ": a test does not close its ledgers");
        }
        closeOnDeath.add(resource);
        if (deathNotice != null) {
            // Died between the caller's check and the registration: the watcher may have missed it.
            closeQuietly(resource);
        }
    }

    public void forget(AutoCloseable resource) {
        closeOnDeath.remove(resource);
    }

    /** Stops the server and deletes its data; idempotent. */
    @Override
    public void close() {
        closing = true;
        stopProcess(process);
        // The data file is over a gigabyte: never leave it behind.
        deleteTree(directory);
    }

    /** The last {@value #LOG_TAIL_LINES} lines of a log, for failure messages. */
    public static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    // ---------------------------------------------------------------- death

    /** One daemon thread per server: it only waits for the exit, so a stuck test cannot delay the notice. */
    private void watch() {
        Thread.ofPlatform().daemon().name("tigerbeetle-watch-" + process.pid()).start(() -> {
            try {
                process.waitFor();
                onExit();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void onExit() {
        if (closing) {
            return;
        }
        int exitCode = process.exitValue();
        String how =
                exitCode > 128 ? exitCode + " (killed by signal " + (exitCode - 128) + ")" : String.valueOf(exitCode);
        deathNotice = "TigerBeetle server " + description + " exited with code " + how
                + " while tests were using it; its log " + log + " ends with:\n" + tail(log);
        System.out.println("[LocalTigerBeetle] " + deathNotice);
        for (AutoCloseable resource : closeOnDeath) {
            closeQuietly(resource);
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            // The death notice is what matters; a client that fails to close must not hide it.
            System.out.println("[LocalTigerBeetle] closing " + resource + " after the server died: " + e);
        }
    }

    // ---------------------------------------------------------------- start and stop

    /** A free port can be taken between our probe and the replica's bind: retry with another one. */
    private static LocalTigerBeetle startOnFreePort(Path binary, Path dataFile, Path directory) {
        Path log = directory.resolve("tigerbeetle.log");
        for (int attempt = 1; attempt <= PORT_ATTEMPTS_MAX; attempt++) {
            int port = freePort();
            String address = "127.0.0.1:" + port;
            List<String> command = new ArrayList<>(List.of(binary.toString(), "start", "--addresses=" + address));
            command.addAll(START_FLAGS);
            command.add(dataFile.toString());
            Process process;
            try {
                process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not run " + binary, e);
            }
            if (awaitPort(process, port)) {
                return new LocalTigerBeetle(
                        process,
                        directory,
                        log,
                        address,
                        "tigerbeetle " + binary + " (pid " + process.pid() + ", data " + directory + ")");
            }
            boolean portTaken = !process.isAlive() && tail(log).contains("AddressInUse");
            boolean exited = !process.isAlive();
            stopProcess(process);
            if (!portTaken || attempt == PORT_ATTEMPTS_MAX) {
                String what = exited
                        ? "exited " + process.exitValue() + " before listening on " + address
                        : "was not listening on " + address + " within " + START_TIMEOUT;
                throw new IllegalStateException(
                        "tigerbeetle start " + what + "; log " + log + " ends with:\n" + tail(log));
            }
        }
        throw new IllegalStateException("unreachable: the last attempt returns or throws");
    }

    static void run(List<String> command, Path log) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(FORMAT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + FORMAT_TIMEOUT
                        + "; log ends with:\n" + tail(log));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue()
                        + "; log ends with:\n" + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    /** True once the port accepts a connection; false if the process exits or the start timeout passes. */
    static boolean awaitPort(Process process, int port) {
        long deadlineNanos = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadlineNanos) {
            if (!process.isAlive()) {
                return false;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return true;
            } catch (IOException notYet) {
                sleepMillis(100);
            }
        }
        return false;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void stopProcess(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // Best effort (also from shutdown hooks, and a second close); the directory is under java.io.tmpdir.
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for TigerBeetle", e);
        }
    }
}
