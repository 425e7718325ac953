package io.pagora.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A single-replica TigerBeetle 0.16.30 cluster from the binary named by {@code TIGERBEETLE_BIN}, formatted
 * fresh for one scenario and deleted afterwards. The start flags are ledger-adapter's test server's
 * ({@code io.pagora.ledger.testsupport.TigerBeetleServer}, test sources, not published): {@code --development}
 * (no Direct IO needed) with production's 1 MiB request limit put back, so batches of 8189 transfers fit.
 *
 * <p>Without {@code TIGERBEETLE_BIN}, {@link #startOrSkip()} aborts the test with a JUnit assumption: it is
 * reported SKIPPED with {@link #SKIP_REASON}, never passed silently. A binary that is set but does not
 * start fails the test.
 */
public final class TigerBeetleProcess implements AutoCloseable {

    public static final String ENVIRONMENT_VARIABLE = "TIGERBEETLE_BIN";
    public static final String SKIP_REASON = "TigerBeetle variant skipped: set " + ENVIRONMENT_VARIABLE
            + " to a tigerbeetle 0.16.30 binary (e.g. /opt/tigerbeetle/tigerbeetle) to run it";

    private static final List<String> START_FLAGS = List.of("--development", "--experimental", "--limit-request=1MiB");
    private static final long FORMAT_TIMEOUT_SECONDS = 120;
    private static final long START_TIMEOUT_SECONDS = 30;

    private final Process process;
    private final Path directory;
    private final String address;

    private TigerBeetleProcess(Process process, Path directory, String address) {
        this.process = process;
        this.directory = directory;
        this.address = address;
    }

    public static TigerBeetleProcess startOrSkip() {
        String binary = System.getenv(ENVIRONMENT_VARIABLE);
        if (binary == null || binary.isBlank()) {
            Pagora.log("%s", SKIP_REASON); // visible in a quiet (-q) build too
            Assumptions.abort(SKIP_REASON);
        }
        if (!Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException(ENVIRONMENT_VARIABLE + "=" + binary + " is not an executable file");
        }
        try {
            Path directory = Files.createTempDirectory("pagora-e2e-tigerbeetle-");
            Path data = directory.resolve("0_0.tigerbeetle");
            Path formatLog = directory.resolve("format.log");
            Process format = new ProcessBuilder(binary, "format", "--cluster=0", "--replica=0", "--replica-count=1",
                    "--development", data.toString())
                    .redirectErrorStream(true).redirectOutput(formatLog.toFile()).start();
            if (!format.waitFor(FORMAT_TIMEOUT_SECONDS, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IllegalStateException("tigerbeetle format failed:\n" + tail(formatLog));
            }
            int port = freePort();
            String address = "127.0.0.1:" + port;
            List<String> command = new ArrayList<>(List.of(binary, "start", "--addresses=" + address));
            command.addAll(START_FLAGS);
            command.add(data.toString());
            Path log = directory.resolve("tigerbeetle.log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            TigerBeetleProcess server = new TigerBeetleProcess(process, directory, address);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            while (!listening(port)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    String why = tail(log);
                    server.close();
                    throw new IllegalStateException("tigerbeetle did not listen on " + address + ":\n" + why);
                }
                Thread.sleep(50);
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The replica's address for {@code pagora.ledger.tigerbeetle.addresses}. */
    public String address() {
        return address;
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // The data file is large: never leave it behind.
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // best effort, under java.io.tmpdir
        }
    }
}
