package io.pagora.testing;

import io.pagora.ledger.port.Ledger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
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
 * <p>A local binary runs as a {@link LocalTigerBeetle} (the pin, the flags, the watch); a container gets the
 * same flags. The data file is fresh per server, but tests share the shared one, so each must use ids of
 * its own rather than assume an empty ledger.
 */
public final class TigerBeetleServer implements AutoCloseable {

    public static final String VERSION = TigerBeetleVersion.PINNED;
    public static final String IMAGE = "ghcr.io/tigerbeetle/tigerbeetle:" + VERSION;
    /** The cluster id every server here is formatted with. */
    public static final BigInteger CLUSTER_ID = BigInteger.valueOf(LocalTigerBeetle.CLUSTER_ID);

    private static final int CONTAINER_PORT = 3000;

    private static boolean attempted;
    private static TigerBeetleServer shared;
    private static String unavailableReason;
    private static RuntimeException startFailure;

    private final String address;
    private final String description;
    /** The process when the server is a local binary; null for a container. */
    private final LocalTigerBeetle local;

    private final Runnable stop;

    private TigerBeetleServer(LocalTigerBeetle local) {
        this(local.address(), local.description(), local, local::close);
    }

    private TigerBeetleServer(String address, String description, LocalTigerBeetle local, Runnable stop) {
        this.address = address;
        this.description = description;
        this.local = local;
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
        TestLane.requireServerLane("TigerBeetle (TigerBeetleServer)");
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
        Assumptions.assumeTrue(
                server.isPresent(), () -> "TigerBeetle " + VERSION + " not available: " + unavailableReason());
        return server.orElseThrow();
    }

    /**
     * A server of the calling test's own, from {@code TIGERBEETLE_BIN}, for a test that kills or stops
     * it; the caller closes it. Without the variable the test is SKIPPED (a JUnit assumption).
     */
    public static TigerBeetleServer startOwn() {
        Optional<Path> binary = LocalTigerBeetle.configuredBinary();
        Assumptions.assumeTrue(
                binary.isPresent(),
                () -> "set " + LocalTigerBeetle.BINARY_VARIABLE + " to a tigerbeetle " + VERSION
                        + " binary to run this test");
        TigerBeetleServer server = new TigerBeetleServer(LocalTigerBeetle.start(binary.get(), "TigerBeetleServer"));
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
        return local().pid();
    }

    /** The server's log (stdout and stderr); only for a local binary. */
    public Path log() {
        return local().log();
    }

    private LocalTigerBeetle local() {
        if (local == null) {
            throw new IllegalStateException("a container's server is not a process of this JVM: " + description);
        }
        return local;
    }

    /**
     * A ledger on this server whose calls fail at once, with the server's log tail, if it dies: see the
     * class comment. Close it like any ledger.
     */
    public Ledger openLedger(Client opener) {
        requireAlive(null);
        Ledger client = opener.open(CLUSTER_ID, address);
        if (local != null) {
            local.closeOnDeath(client);
        }
        return new WatchedLedger(this, client);
    }

    /**
     * Opens a ledger client on a server. Test support knows only the port; the caller names the adapter
     * (e.g. {@code (cluster, address) -> new TigerBeetleLedger(cluster, address, config)}).
     */
    @FunctionalInterface
    public interface Client {
        Ledger open(BigInteger clusterId, String address);
    }

    /** Stops the server and deletes its data; idempotent. Its ledgers' calls fail from then on. */
    @Override
    public void close() {
        stop.run();
    }

    // ---------------------------------------------------------------- death

    /** Throws {@link DiedException} if the server died; otherwise does nothing. */
    void requireAlive(Throwable cause) {
        String notice = deathNotice();
        if (notice != null) {
            throw new DiedException(notice, cause);
        }
    }

    /** What a failed call throws: the server's death notice if it died, else the call's own failure. */
    RuntimeException explain(RuntimeException failure) {
        String notice = deathNotice();
        return notice == null ? failure : new DiedException(notice, failure);
    }

    void forget(Ledger client) {
        if (local != null) {
            local.forget(client);
        }
    }

    /** Null while alive, and always for a container (it is not our process, so it is not watched). */
    private String deathNotice() {
        return local == null ? null : local.deathNotice();
    }

    // ---------------------------------------------------------------- where the shared one comes from

    private static TigerBeetleServer start() {
        Optional<Path> binary = LocalTigerBeetle.configuredBinary();
        if (binary.isPresent()) {
            return new TigerBeetleServer(LocalTigerBeetle.start(binary.get(), "TigerBeetleServer"));
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
        unavailableReason = "set " + LocalTigerBeetle.BINARY_VARIABLE + " to a tigerbeetle " + VERSION
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

    // ---------------------------------------------------------------- Docker

    @SuppressWarnings("resource") // Stopped by close() (the shutdown hook), not by try-with-resources.
    private static TigerBeetleServer startContainer() {
        String data = "/tmp/0_0.tigerbeetle";
        String script = "/tigerbeetle format --cluster=" + CLUSTER_ID + " --replica=0 --replica-count=1 --development "
                + data + " && exec /tigerbeetle start --addresses=0.0.0.0:" + CONTAINER_PORT + " "
                + String.join(" ", LocalTigerBeetle.START_FLAGS) + " " + data;
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
        return new TigerBeetleServer(
                ip + ":" + container.getMappedPort(CONTAINER_PORT),
                "container " + IMAGE + " (" + container.getContainerId() + ")",
                null,
                container::stop);
    }
}
