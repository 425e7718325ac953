package io.pagora.clearing.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A single-replica TigerBeetle 0.16.30 cluster from the binary named by {@code TIGERBEETLE_BIN},
 * formatted fresh for one test class and deleted afterwards. Without {@code TIGERBEETLE_BIN} the tests
 * using it are SKIPPED with {@link #SKIP_REASON} (a JUnit assumption), never passed silently. Flags as ledger-adapter's
 * test server: {@code --development} (no Direct IO needed) with production's 1 MiB request limit.
 */
public final class TestTigerBeetle implements AutoCloseable {

    private final Process process;
    private final Path directory;
    private final String address;

    private TestTigerBeetle(Process process, Path directory, String address) {
        this.process = process;
        this.directory = directory;
        this.address = address;
    }

    public static final String SKIP_REASON =
            "TigerBeetle variant skipped: set TIGERBEETLE_BIN to a tigerbeetle 0.16.30 binary to run it";

    /** Starts a server from {@code TIGERBEETLE_BIN}; null when it is not set (a set but broken binary fails). */
    public static TestTigerBeetle startIfConfigured() {
        String binary = System.getenv("TIGERBEETLE_BIN");
        if (binary == null || binary.isBlank()) {
            return null;
        }
        try {
            Path directory = Files.createTempDirectory("clearing-tigerbeetle-");
            Path data = directory.resolve("0_0.tigerbeetle");
            run(List.of(binary, "format", "--cluster=0", "--replica=0", "--replica-count=1", "--development", data.toString()),
                    directory.resolve("format.log"));
            int port = freePort();
            String address = "127.0.0.1:" + port;
            Process process = new ProcessBuilder(List.of(binary, "start", "--addresses=" + address, "--development",
                    "--experimental", "--limit-request=1MiB", data.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("tigerbeetle.log").toFile())
                    .start();
            TestTigerBeetle server = new TestTigerBeetle(process, directory, address);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!listening(port)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IllegalStateException("tigerbeetle did not listen on " + address
                            + "; see its log in " + directory);
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

    public String address() {
        return address;
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed; see " + log);
        }
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
        // The data file is over a gigabyte: never leave it behind.
        try (Stream<Path> paths = Files.walk(directory)) {
            List<Path> all = new ArrayList<>(paths.sorted(Comparator.reverseOrder()).toList());
            for (Path path : all) {
                Files.deleteIfExists(path);
            }
        } catch (IOException ignored) {
            // best effort: under java.io.tmpdir
        }
    }
}
