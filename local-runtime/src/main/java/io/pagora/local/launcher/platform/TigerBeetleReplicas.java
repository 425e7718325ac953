package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Supervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The platform's TigerBeetle replicas: the binary's version checked, each replica's data file formatted
 * when new, then started together.
 */
public final class TigerBeetleReplicas {

    private final Platform platform;

    TigerBeetleReplicas(Platform platform) {
        this.platform = platform;
    }

    /**
     * Every TigerBeetle replica of the topology: each its own process and data file ({@code 0_<replica>.tigerbeetle}),
     * each given every replica's address, launched together (a cluster serves once a quorum of them runs).
     */
    public void startTigerBeetle() {
        Path binary = Path.of(platform.settings.text("TIGERBEETLE_BIN"));
        if (!Files.isExecutable(binary)) {
            throw Console.fail("TIGERBEETLE_BIN=%s is not an executable", binary);
        }
        String version = Exec.capture(List.of(binary.toString(), "version"))
                .output()
                .lines()
                .findFirst()
                .orElse("");
        checkTigerBeetleVersion(version);
        Topology topology = platform.runningTopology();
        List<Topology.Instance> started = new ArrayList<>();
        for (Topology.Instance replica : topology.tigerBeetle()) {
            if (platform.supervisor.alive(replica.name())) {
                Console.say("%s already running", replica.name());
                continue;
            }
            startTigerBeetleReplica(topology, replica, version);
            started.add(replica);
        }
        for (Topology.Instance replica : started) {
            platform.supervisor.waitForPort(replica.name(), replica.port(), 60);
        }
    }

    /** Formats the replica's data file when it is new, then starts it (also chaos's restart of a killed replica). */
    void startTigerBeetleReplica(Topology topology, Topology.Instance replica, String version) {
        Path binary = Path.of(platform.settings.text("TIGERBEETLE_BIN"));
        Supervisor.requireFreePort(replica.name(), replica.port());
        Path directory = platform.layout.var().resolve("tigerbeetle");
        int replicaIndex = replica.index() - 1;
        Path data = directory.resolve("0_" + replicaIndex + ".tigerbeetle");
        Platform.createDirectories(directory);
        // Production mode (Direct IO, full-size batches), as docker-compose.yml runs it. Only where the file
        // system refuses Direct IO (tmpfs, some overlay file systems) does it fall back to --development, loudly.
        boolean development = Files.exists(directory.resolve("development"));
        if (!Files.exists(data)) {
            Console.say(
                    "formatting %s (%s, replica %d of %d, %s)",
                    data,
                    version,
                    replicaIndex,
                    topology.tigerBeetleReplicas(),
                    development ? "--development" : "production mode");
            List<String> format = new ArrayList<>(List.of(
                    binary.toString(),
                    "format",
                    "--cluster=0",
                    "--replica=" + replicaIndex,
                    "--replica-count=" + topology.tigerBeetleReplicas(),
                    data.toString()));
            if (development) {
                format.add(format.size() - 1, "--development");
            }
            boolean formatted = Exec.capture(format, Map.of(), platform.layout.log(replica.name()))
                            .status()
                    == 0;
            if (!formatted && development) {
                throw Console.fail(
                        "tigerbeetle format --development failed (log: %s)", platform.layout.log(replica.name()));
            }
            if (!formatted) {
                Supervisor.delete(data);
                Console.warn(
                        "TigerBeetle could not format in production mode (Direct IO unavailable under %s?):"
                                + " using --development",
                        platform.layout.var());
                development = true;
                Postgres.write(directory.resolve("development"), "");
                format.add(format.size() - 1, "--development");
                if (Exec.capture(format, Map.of(), platform.layout.log(replica.name()))
                                .status()
                        != 0) {
                    throw Console.fail("tigerbeetle format failed (log: %s)", platform.layout.log(replica.name()));
                }
            }
        }
        List<String> start = new ArrayList<>(List.of(
                binary.toString(),
                "start",
                "--addresses=" + topology.tigerBeetleAddresses(),
                "--cache-grid=" + platform.settings.text("TB_CACHE_GRID")));
        if (development) {
            // --limit-request=1MiB keeps full 8189-transfer batches possible in development mode.
            start.addAll(List.of("--development", "--experimental", "--limit-request=1MiB"));
        }
        start.add(data.toString());
        Console.say(
                "starting %s (replica %d of %d) on %s:%d, data %s, cache grid %s %s",
                replica.name(),
                replicaIndex,
                topology.tigerBeetleReplicas(),
                Layout.HOST,
                replica.port(),
                data,
                platform.settings.text("TB_CACHE_GRID"),
                development ? "--development" : "(production mode)");
        platform.supervisor.launch(replica.name(), start, Map.of(), true);
    }

    /**
     * Older servers are refused (0.16.30's panics under the contract suite); a newer one is allowed, loudly, since
     * servers up to 0.17.0 accept the 0.16.30 client.
     */
    public static void checkTigerBeetleVersion(String versionLine) {
        String got = versionLine.substring(versionLine.lastIndexOf(' ') + 1);
        int metadata = got.indexOf('+');
        got = metadata < 0 ? got : got.substring(0, metadata);
        if (!got.matches("\\d+\\.\\d+\\.\\d+")) {
            throw Console.fail("TIGERBEETLE_BIN does not say its version ('%s')", versionLine);
        }
        Comparator<String> byVersion = Comparator.comparing(TigerBeetleReplicas::versionKey);
        if (byVersion.compare(got, Platform.TIGERBEETLE_VERSION) < 0) {
            throw Console.fail(
                    "TIGERBEETLE_BIN is TigerBeetle %s, older than the pinned %s (docs/testing.md: server and"
                            + " client)",
                    got, Platform.TIGERBEETLE_VERSION);
        }
        if (!got.equals(Platform.TIGERBEETLE_VERSION)) {
            Console.warn(
                    "TIGERBEETLE_BIN is TigerBeetle %s, not the %s this project is tested with",
                    got, Platform.TIGERBEETLE_VERSION);
        }
    }

    private static long versionKey(String version) {
        String[] parts = version.split("\\.");
        return Long.parseLong(parts[0]) * 1_000_000_000L
                + Long.parseLong(parts[1]) * 1_000_000L
                + Long.parseLong(parts[2]);
    }
}
