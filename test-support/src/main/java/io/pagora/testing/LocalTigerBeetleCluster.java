package io.pagora.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;

/**
 * A TigerBeetle cluster of several replicas, each its own process and data file on its own loopback port, for tests of
 * what a replicated ledger does when one replica dies, stops answering or comes back (docs/scale-out.md). Formatted
 * fresh in a temporary directory that {@link #close()} deletes; the same pin and development flags as
 * {@link LocalTigerBeetle}. A replica is killed with SIGKILL (no goodbye, as a machine lost), paused with SIGSTOP (a
 * replica that hangs but keeps its sockets open) and restarted on its own data file, where it catches up.
 */
public final class LocalTigerBeetleCluster implements AutoCloseable {

    /** 3 is the smallest cluster that survives a replica's loss; 6 is production's. */
    public static final int REPLICAS_MAX = 6;

    private final Path binary;
    private final Path directory;
    private final List<Integer> ports;
    private final List<Process> processes;

    private LocalTigerBeetleCluster(Path binary, Path directory, List<Integer> ports) {
        this.binary = binary;
        this.directory = directory;
        this.ports = List.copyOf(ports);
        this.processes = new ArrayList<>(IntStream.range(0, ports.size())
                .mapToObj(replica -> (Process) null)
                .toList());
    }

    /** Starts a cluster from {@code TIGERBEETLE_BIN}; without one, the calling test is SKIPPED (a JUnit assumption). */
    public static LocalTigerBeetleCluster startOrSkip(String who, int replicaCount) {
        Optional<Path> binary = LocalTigerBeetle.configuredBinary();
        if (binary.isEmpty()) {
            System.out.println("[" + who + "] " + LocalTigerBeetle.SKIP_REASON);
            Assumptions.abort(LocalTigerBeetle.SKIP_REASON);
        }
        return start(binary.orElseThrow(), who, replicaCount);
    }

    public static LocalTigerBeetleCluster start(Path binary, String who, int replicaCount) {
        TestLane.requireServerLane("TigerBeetle cluster (" + who + ")");
        if (replicaCount < 1 || replicaCount > REPLICAS_MAX) {
            throw new IllegalArgumentException("replicas in [1, " + REPLICAS_MAX + "]: " + replicaCount);
        }
        TigerBeetleVersion.requirePinned(binary, who);
        Path directory;
        try {
            directory = Files.createTempDirectory("pagora-tigerbeetle-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Integer> ports = IntStream.range(0, replicaCount)
                .map(replica -> LocalTigerBeetle.freePort())
                .boxed()
                .toList();
        LocalTigerBeetleCluster cluster = new LocalTigerBeetleCluster(binary, directory, ports);
        try {
            for (int replica = 0; replica < replicaCount; replica++) {
                LocalTigerBeetle.run(
                        List.of(
                                binary.toString(),
                                "format",
                                "--cluster=" + LocalTigerBeetle.CLUSTER_ID,
                                "--replica=" + replica,
                                "--replica-count=" + replicaCount,
                                "--development",
                                cluster.dataFile(replica).toString()),
                        directory.resolve("format-" + replica + ".log"));
            }
            for (int replica = 0; replica < replicaCount; replica++) {
                cluster.launch(replica);
            }
            for (int replica = 0; replica < replicaCount; replica++) {
                cluster.awaitListening(replica);
            }
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        System.out.println("[" + who + "] tigerbeetle cluster of " + replicaCount + " replicas at "
                + cluster.addresses() + " (data " + directory + ")");
        return cluster;
    }

    /** Every replica's address, in replica order: what a client is given. */
    public String addresses() {
        return ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    public int replicaCount() {
        return ports.size();
    }

    /** SIGKILL: the replica is gone at once, mid-whatever, as when its machine is lost. */
    public void kill(int replica) {
        Process process = running(replica);
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP: the replica stops answering but keeps its connections: the others see silence, not a closed socket. */
    public void pause(int replica) {
        signal(replica, "STOP");
    }

    /** SIGCONT after {@link #pause}. */
    public void resume(int replica) {
        signal(replica, "CONT");
    }

    /** Starts a killed replica again on its own data file: it rejoins and catches up from the others. */
    public void restart(int replica) {
        if (processes.get(replica) != null && processes.get(replica).isAlive()) {
            throw new IllegalStateException("replica " + replica + " is running");
        }
        launch(replica);
        awaitListening(replica);
    }

    public boolean alive(int replica) {
        Process process = processes.get(replica);
        return process != null && process.isAlive();
    }

    /** The replica's stdout and stderr. */
    public Path log(int replica) {
        return directory.resolve("replica-" + replica + ".log");
    }

    @Override
    public void close() {
        for (int replica = 0; replica < ports.size(); replica++) {
            Process process = processes.get(replica);
            if (process != null) {
                signalQuietly(process, "CONT");
                LocalTigerBeetle.stopProcess(process);
            }
        }
        LocalTigerBeetle.deleteTree(directory);
    }

    private Path dataFile(int replica) {
        return directory.resolve("0_" + replica + ".tigerbeetle");
    }

    private void launch(int replica) {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "start", "--addresses=" + addresses()));
        command.addAll(LocalTigerBeetle.START_FLAGS);
        command.add(dataFile(replica).toString());
        try {
            processes.set(
                    replica,
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.appendTo(
                                    log(replica).toFile()))
                            .start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + binary, e);
        }
    }

    private void awaitListening(int replica) {
        if (!LocalTigerBeetle.awaitPort(processes.get(replica), ports.get(replica))) {
            throw new IllegalStateException("replica " + replica + " is not listening on " + ports.get(replica)
                    + "; its log ends with:\n" + LocalTigerBeetle.tail(log(replica)));
        }
    }

    private Process running(int replica) {
        Process process = processes.get(replica);
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("replica " + replica + " is not running");
        }
        return process;
    }

    private void signal(int replica, String signal) {
        Process process = running(replica);
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void signalQuietly(Process process, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .start()
                    .waitFor();
        } catch (IOException | InterruptedException ignored) {
            // Stopping it follows either way.
        }
    }
}
