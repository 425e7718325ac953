package io.pagora.ledger.testsupport;

import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.domain.Ledger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
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
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A running single-replica TigerBeetle cluster for tests: one shared per test JVM ({@link #shared()}),
 * started on first use and stopped (data file deleted) by a shutdown hook, or one of a test's own
 * ({@link #startOwn()}) for a test that must break it.
 *
 * <p>The server is pinned at {@value #VERSION} (see {@link TigerBeetleVersion} for why): a local binary
 * is asked its release first, the release is printed, and an older one is refused before it starts.
 *
 * <p>Where the shared server comes from, in order:
 *
 * <ol>
 *   <li>{@code TIGERBEETLE_BIN}: a local {@code tigerbeetle} binary. Setting it is a request, so a binary
 *       that is too old or fails to start fails the tests (with the server's log tail) instead of skipping them.
 *   <li>Docker, through Testcontainers: the {@value #IMAGE} image.
 *   <li>Neither: {@link #shared()} is empty and {@link #unavailableReason()} says why. Tests call
 *       {@link #requireShared()} so JUnit reports them SKIPPED with that reason; they never pass silently.
 * </ol>
 *
 * <p><b>A server that dies fails its tests at once.</b> TigerBeetle's client never gives up on a request
 * (it retries until the cluster answers), so without help every call blocked on a dead server waits out
 * the ledger's whole deadline, and every later test waits it out again. A local server's process is
 * therefore watched: when it exits, the notice (exit code and the tail of its log) is recorded, every
 * client opened through {@link #openLedger} is closed — which completes its blocked calls at once — and
 * from then on every call through those ledgers, and every {@link #shared()}, fails with
 * {@link DiedException} carrying that notice. (A Docker server is not watched: it is not our process.)
 *
 * <p>Every server is formatted and started with {@code --development}: it tolerates file systems without
 * Direct IO (tmpfs, overlayfs in containers) and uses a small grid cache, which is what a test needs; the
 * request size is set back to production's (see {@link #START_FLAGS}). The data file is fresh per server,
 * but tests share the shared one, so each must use ids of its own rather than assume an empty ledger.
 */
public final class TigerBeetleServer implements AutoCloseable {

    public static final String VERSION = "0.16.78";
    public static final String IMAGE = "ghcr.io/tigerbeetle/tigerbeetle:" + VERSION;
    /** The cluster id every server here is formatted with. */
    public static final BigInteger CLUSTER_ID = BigInteger.ZERO;
    public static final String BINARY_VARIABLE = "TIGERBEETLE_BIN";

    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    /**
     * {@code --development} alone would also shrink the request size, so a batch of
     * {@code Ledger.BATCH_SIZE_MAX} (8189) events would be refused as too much data. The (experimental in
     * 0.16) {@code --limit-request} puts it back to production's 1 MiB, so tests see production's limit.
     */
    public static final List<String> START_FLAGS = List.of("--development", "--experimental", "--limit-request=1MiB");
    private static final int CONTAINER_PORT = 3000;
    private static final int PORT_ATTEMPTS_MAX = 3;
    private static final int LOG_TAIL_LINES = 40;

    private static boolean attempted;
    private static TigerBeetleServer shared;
    private static String unavailableReason;
    private static RuntimeException startFailure;

    private final String address;
    private final String description;
    /** Null for a container: then nothing is watched. */
    private final Process process;
    private final Path log;
    private final Runnable stop;
    /** The clients of the ledgers opened through {@link #openLedger}, closed when the server dies. */
    private final Set<TigerBeetleLedger> clients = ConcurrentHashMap.newKeySet();
    /** Set once, before any client is closed, so every failure that follows can say why. */
    private volatile String deathNotice;
    private volatile boolean closing;

    private TigerBeetleServer(String address, String description, Process process, Path log, Runnable stop) {
        this.address = address;
        this.description = description;
        this.process = process;
        this.log = log;
        this.stop = stop;
    }

    /** A call on a ledger of a server that died: the message is the server's exit and log tail. */
    public static final class DiedException extends IllegalStateException {
        DiedException(String notice, Throwable cause) {
            super(notice, cause);
        }
    }

    /**
     * The JVM's server, started on the first call. Empty when no server can be had here; then
     * {@link #unavailableReason()} says why.
     *
     * @throws IllegalStateException if {@code TIGERBEETLE_BIN} is set but that binary is refused or does not start
     * @throws DiedException if the shared server has died since
     */
    public static synchronized Optional<TigerBeetleServer> shared() {
        if (!attempted) {
            attempted = true;
            try {
                shared = start();
            } catch (RuntimeException e) {
                startFailure = e;
                System.out.println("[TigerBeetleServer] failed to start: " + e);
            }
            if (shared != null) {
                TigerBeetleServer server = shared;
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "tigerbeetle-stop"));
                System.out.println("[TigerBeetleServer] " + server.description + " at " + server.address);
            } else if (startFailure == null) {
                System.out.println("[TigerBeetleServer] not available: " + unavailableReason);
            }
        }
        if (startFailure != null) {
            // Every test that asks fails, not only the first: a requested server that is broken is an error.
            throw new IllegalStateException("TigerBeetle was requested but did not start", startFailure);
        }
        if (shared != null) {
            shared.requireAlive(null);
        }
        return Optional.ofNullable(shared);
    }

    /** Why {@link #shared()} is empty; null while it is present or not yet asked for. */
    public static synchronized String unavailableReason() {
        return unavailableReason;
    }

    /** The shared server, or a JUnit assumption failure (the test is SKIPPED with the reason). */
    public static TigerBeetleServer requireShared() {
        Optional<TigerBeetleServer> server = shared();
        Assumptions.assumeTrue(server.isPresent(), () -> "TigerBeetle " + VERSION + " not available: " + unavailableReason());
        return server.orElseThrow();
    }

    /**
     * A server of the calling test's own, from {@code TIGERBEETLE_BIN}, for a test that kills or stops
     * it; the caller closes it. Without the variable the test is SKIPPED (a JUnit assumption).
     */
    public static TigerBeetleServer startOwn() {
        String binary = System.getenv(BINARY_VARIABLE);
        Assumptions.assumeTrue(binary != null && !binary.isBlank(),
                () -> "set " + BINARY_VARIABLE + " to a tigerbeetle " + VERSION + " binary to run this test");
        TigerBeetleServer server = startBinary(Path.of(binary));
        // Should the test never close it: the data file is over a gigabyte.
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "tigerbeetle-stop-own"));
        return server;
    }

    /** The replica address for a client, {@code ip:port}: TigerBeetle's client takes IPs, not host names. */
    public String address() {
        return address;
    }

    public BigInteger clusterId() {
        return CLUSTER_ID;
    }

    /** Where the server runs, for logs. */
    public String description() {
        return description;
    }

    /** The server's process id; only for a local binary. */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("a container's server is not a process of this JVM: " + description);
        }
        return process.pid();
    }

    /** The server's log (stdout and stderr); only for a local binary. */
    public Path log() {
        if (log == null) {
            throw new IllegalStateException("a container's log is Docker's: " + description);
        }
        return log;
    }

    /**
     * A ledger on this server whose calls fail at once, with the server's log tail, if it dies: see the
     * class comment. Close it like any ledger.
     */
    public Ledger openLedger(TigerBeetleLedger.Config config) {
        requireAlive(null);
        TigerBeetleLedger client = new TigerBeetleLedger(CLUSTER_ID, address, config);
        clients.add(client);
        if (deathNotice != null) {
            // Died between the check and the registration: the watcher may have missed this client.
            client.close();
        }
        return new WatchedLedger(this, client);
    }

    /** Stops the server and deletes its data; idempotent. Its ledgers' calls fail from then on. */
    @Override
    public void close() {
        closing = true;
        stop.run();
    }

    // ---------------------------------------------------------------- death

    /** Throws {@link DiedException} if the server died; otherwise does nothing. */
    void requireAlive(Throwable cause) {
        String notice = deathNotice;
        if (notice != null) {
            throw new DiedException(notice, cause);
        }
    }

    /** What a failed call throws: the server's death notice if it died, else the call's own failure. */
    RuntimeException explain(RuntimeException failure) {
        String notice = deathNotice;
        return notice == null ? failure : new DiedException(notice, failure);
    }

    void forget(TigerBeetleLedger client) {
        clients.remove(client);
    }

    /** Runs on the watcher thread once the process is gone. */
    private void onExit() {
        if (closing) {
            return;
        }
        int exitCode = process.exitValue();
        String how = exitCode > 128 ? exitCode + " (killed by signal " + (exitCode - 128) + ")" : String.valueOf(exitCode);
        deathNotice = "TigerBeetle server " + description + " exited with code " + how
                + " while tests were using it; its log " + log + " ends with:\n" + tail(log);
        System.out.println("[TigerBeetleServer] " + deathNotice);
        // Closing a 0.16 client completes its pending requests (status ClientShutdown), so callers blocked
        // in it are released now instead of at their deadline; the ledger reports them as unavailable.
        for (TigerBeetleLedger client : clients) {
            client.close();
        }
    }

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

    // ---------------------------------------------------------------- where the shared one comes from

    private static TigerBeetleServer start() {
        String binary = System.getenv(BINARY_VARIABLE);
        if (binary != null && !binary.isBlank()) {
            return startBinary(Path.of(binary));
        }
        String dockerProblem = dockerProblem();
        if (dockerProblem == null) {
            try {
                return startContainer();
            } catch (RuntimeException e) {
                unavailableReason = "Docker is available but the " + IMAGE + " container did not start: " + e;
                return null;
            }
        }
        unavailableReason = "set " + BINARY_VARIABLE + " to a tigerbeetle " + VERSION
                + " binary, or make Docker available (" + dockerProblem + ")";
        return null;
    }

    private static String dockerProblem() {
        try {
            return DockerClientFactory.instance().isDockerAvailable() ? null : "Docker is not reachable";
        } catch (RuntimeException | LinkageError e) {
            return "Docker check failed: " + e;
        }
    }

    // ---------------------------------------------------------------- local binary

    private static TigerBeetleServer startBinary(Path binary) {
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(BINARY_VARIABLE + "=" + binary + " is not an executable file");
        }
        TigerBeetleVersion.requirePinned(binary, "TigerBeetleServer");
        Path directory;
        try {
            directory = Files.createTempDirectory("pagora-tigerbeetle-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path dataFile = directory.resolve("0_0.tigerbeetle");
        Path log = directory.resolve("tigerbeetle.log");
        try {
            run(List.of(binary.toString(), "format", "--cluster=" + CLUSTER_ID, "--replica=0", "--replica-count=1",
                    "--development", dataFile.toString()), directory.resolve("format.log"));
            return startOnFreePort(binary, dataFile, log, directory);
        } catch (RuntimeException e) {
            deleteTree(directory);
            throw e;
        }
    }

    /** A free port can be taken between our probe and the replica's bind: retry with another one. */
    private static TigerBeetleServer startOnFreePort(Path binary, Path dataFile, Path log, Path directory) {
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
                TigerBeetleServer server = new TigerBeetleServer(address,
                        "tigerbeetle " + binary + " (pid " + process.pid() + ", data " + directory + ")",
                        process, log, () -> stopAndDelete(process, directory));
                server.watch();
                return server;
            }
            boolean portTaken = !process.isAlive() && tail(log).contains("AddressInUse");
            stopProcess(process);
            if (!portTaken || attempt == PORT_ATTEMPTS_MAX) {
                String what = process.isAlive()
                        ? "was not listening on " + address + " within " + START_TIMEOUT
                        : "exited " + process.exitValue() + " before listening on " + address;
                throw new IllegalStateException("tigerbeetle start " + what + "; log " + log + " ends with:\n" + tail(log));
            }
        }
        throw new IllegalStateException("unreachable: the last attempt returns or throws");
    }

    private static void run(List<String> command, Path log) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
    private static boolean awaitPort(Process process, int port) {
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stopAndDelete(Process process, Path directory) {
        stopProcess(process);
        // The data file is over a gigabyte: never leave it behind.
        deleteTree(directory);
    }

    private static void stopProcess(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // Best effort (also from a shutdown hook); the directory is under java.io.tmpdir.
        }
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

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for TigerBeetle", e);
        }
    }

    // ---------------------------------------------------------------- Docker

    @SuppressWarnings("resource") // Stopped by close() (the shutdown hook), not by try-with-resources.
    private static TigerBeetleServer startContainer() {
        String data = "/tmp/0_0.tigerbeetle";
        String script = "/tigerbeetle format --cluster=" + CLUSTER_ID + " --replica=0 --replica-count=1 --development "
                + data + " && exec /tigerbeetle start --addresses=0.0.0.0:" + CONTAINER_PORT + " "
                + String.join(" ", START_FLAGS) + " " + data;
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withExposedPorts(CONTAINER_PORT)
                // io_uring is blocked by Docker's default seccomp profile.
                .withPrivilegedMode(true)
                .withCreateContainerCmdModifier(command -> command.withEntrypoint("sh", "-c"))
                .withCommand(script)
                .waitingFor(Wait.forLogMessage("(?s).*listening on.*", 1))
                .withStartupTimeout(Duration.ofSeconds(120));
        container.start();
        String ip;
        try {
            ip = InetAddress.getByName(container.getHost()).getHostAddress();
        } catch (IOException e) {
            container.stop();
            throw new UncheckedIOException(e);
        }
        return new TigerBeetleServer(ip + ":" + container.getMappedPort(CONTAINER_PORT),
                "container " + IMAGE + " (" + container.getContainerId() + ")", null, null, container::stop);
    }
}
