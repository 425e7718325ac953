package io.pagora.ledger.testsupport;

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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * One running single-replica TigerBeetle 0.16.30 cluster per test JVM, started on first use and
 * stopped (data file deleted) by a shutdown hook.
 *
 * <p>Where it comes from, in order:
 *
 * <ol>
 *   <li>{@code TIGERBEETLE_BIN}: a local {@code tigerbeetle} binary. Setting it is a request, so a binary
 *       that fails to start fails the tests (with the server's log tail) instead of skipping them.
 *   <li>Docker, through Testcontainers: the {@value #IMAGE} image.
 *   <li>Neither: {@link #shared()} is empty and {@link #unavailableReason()} says why. Tests call
 *       {@link #requireShared()} so JUnit reports them SKIPPED with that reason; they never pass silently.
 * </ol>
 *
 * <p>Every server is formatted and started with {@code --development}: it tolerates file systems without
 * Direct IO (tmpfs, overlayfs in containers) and uses a small grid cache, which is what a test needs; the
 * request size is set back to production's (see {@link #START_FLAGS}). The data file is fresh per JVM, but
 * tests share it, so each must use ids of its own rather than assume an empty ledger.
 */
public final class TigerBeetleServer {

    public static final String VERSION = "0.16.30";
    public static final String IMAGE = "ghcr.io/tigerbeetle/tigerbeetle:" + VERSION;
    /** The cluster id every server here is formatted with. */
    public static final BigInteger CLUSTER_ID = BigInteger.ZERO;

    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /**
     * {@code --development} alone would also shrink the request size, so a batch of
     * {@code Ledger.BATCH_SIZE_MAX} (8189) events would be refused as too much data. The (experimental in
     * 0.16) {@code --limit-request} puts it back to production's 1 MiB, so tests see production's limit.
     */
    private static final List<String> START_FLAGS = List.of("--development", "--experimental", "--limit-request=1MiB");
    private static final int CONTAINER_PORT = 3000;
    private static final int PORT_ATTEMPTS_MAX = 3;
    private static final int LOG_TAIL_LINES = 40;

    private static boolean attempted;
    private static TigerBeetleServer shared;
    private static String unavailableReason;
    private static RuntimeException startFailure;

    private final String address;
    private final String description;

    private TigerBeetleServer(String address, String description) {
        this.address = address;
        this.description = description;
    }

    /**
     * The JVM's server, started on the first call. Empty when no server can be had here; then
     * {@link #unavailableReason()} says why.
     *
     * @throws IllegalStateException if {@code TIGERBEETLE_BIN} is set but that binary does not start
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
                System.out.println("[TigerBeetleServer] " + shared.description + " at " + shared.address);
            } else if (startFailure == null) {
                System.out.println("[TigerBeetleServer] not available: " + unavailableReason);
            }
        }
        if (startFailure != null) {
            // Every test that asks fails, not only the first: a requested server that is broken is an error.
            throw new IllegalStateException("TigerBeetle was requested but did not start", startFailure);
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

    private static TigerBeetleServer start() {
        String binary = System.getenv("TIGERBEETLE_BIN");
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
        unavailableReason = "set TIGERBEETLE_BIN to a tigerbeetle " + VERSION + " binary, or make Docker available ("
                + dockerProblem + ")";
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
            throw new IllegalStateException("TIGERBEETLE_BIN=" + binary + " is not an executable file");
        }
        Path directory;
        try {
            directory = Files.createTempDirectory("pagora-tigerbeetle-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path dataFile = directory.resolve("0_0.tigerbeetle");
        Path log = directory.resolve("tigerbeetle.log");
        List<Process> processes = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndDelete(processes, directory), "tigerbeetle-stop"));

        run(List.of(binary.toString(), "format", "--cluster=" + CLUSTER_ID, "--replica=0", "--replica-count=1",
                "--development", dataFile.toString()), directory.resolve("format.log"));

        // A free port can be taken between our probe and the replica's bind: retry with another one.
        for (int attempt = 1; ; attempt++) {
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
            synchronized (processes) {
                processes.add(process);
            }
            if (awaitPort(process, port)) {
                return new TigerBeetleServer(address,
                        "tigerbeetle " + binary + " (pid " + process.pid() + ", data " + directory + ")");
            }
            boolean portTaken = !process.isAlive() && tail(log).contains("AddressInUse");
            process.destroyForcibly();
            if (!portTaken || attempt == PORT_ATTEMPTS_MAX) {
                String what = process.isAlive()
                        ? "was not listening on " + address + " within " + START_TIMEOUT
                        : "exited " + process.exitValue() + " before listening on " + address;
                throw new IllegalStateException("tigerbeetle start " + what + "; log " + log + " ends with:\n" + tail(log));
            }
        }
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

    private static void stopAndDelete(List<Process> processes, Path directory) {
        synchronized (processes) {
            for (Process process : processes) {
                process.destroy();
            }
            for (Process process : processes) {
                try {
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        // The data file is over a gigabyte: never leave it behind.
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // Best effort in a shutdown hook; the directory is under java.io.tmpdir.
        }
    }

    private static String tail(Path log) {
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

    @SuppressWarnings("resource") // Stopped by the shutdown hook below, not by try-with-resources.
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
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "tigerbeetle-container-stop"));
        String ip;
        try {
            ip = InetAddress.getByName(container.getHost()).getHostAddress();
        } catch (IOException e) {
            container.stop();
            throw new UncheckedIOException(e);
        }
        return new TigerBeetleServer(ip + ":" + container.getMappedPort(CONTAINER_PORT),
                "container " + IMAGE + " (" + container.getContainerId() + ")");
    }
}
