package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.Tools;
import io.pagora.local.servers.LocalPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * PostgreSQL for the platform: Debian's server when its binaries exist (as the OS user {@code postgres} when
 * the launcher runs as root: PostgreSQL refuses root), else the embedded one (local-runtime's LocalPostgres).
 * {@code var/run/postgres.mode} says which runs ({@code debian <bin>} or {@code embedded}).
 */
public final class Postgres {

    static final int PORT = 5432;
    public static final String DATABASE = "pagora";
    public static final String USER = "pagora";
    public static final String PASSWORD = "pagora";
    public static final String JDBC_URL = "jdbc:postgresql://" + Layout.HOST + ":" + PORT + "/" + DATABASE;
    private static final int READY_SECONDS = 120;

    private final Layout layout;
    private final Supervisor supervisor;
    private final Tools tools;
    private final Settings settings;

    Postgres(Layout layout, Supervisor supervisor, Tools tools, Settings settings) {
        this.layout = layout;
        this.supervisor = supervisor;
        this.tools = tools;
        this.settings = settings;
    }

    static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    static Optional<Path> debianBin() {
        Path base = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(base)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(base)) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("postgres")))
                    .max(Comparator.comparing(
                            bin -> versionNumber(bin.getParent().getFileName().toString())));
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    private static int versionNumber(String name) {
        return name.matches("\\d+") ? Integer.parseInt(name) : 0;
    }

    public String mode() {
        return read(layout.state("postgres.mode")).orElse("");
    }

    public void start() {
        if (!mode().isEmpty() && running()) {
            Console.say("PostgreSQL already running (%s)", mode());
            return;
        }
        Supervisor.requireFreePort("postgres", PORT);
        Optional<Path> bin = debianBin();
        boolean embeddedAsked =
                "embedded".equals(settings.optional("PAGORA_POSTGRES").orElse(""));
        boolean userExists = !root() || Exec.run(List.of("id", "postgres")) == 0;
        if (!embeddedAsked && bin.isPresent() && userExists) {
            startDebian(bin.get());
            return;
        }
        if (!embeddedAsked && bin.isPresent()) {
            Console.warn(
                    "running as root without a 'postgres' OS user: PostgreSQL's own server refuses to run as root");
        }
        startEmbedded();
    }

    boolean running() {
        String mode = mode();
        if (mode.startsWith("debian")) {
            return postmasterPid()
                    .flatMap(ProcessHandle::of)
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
        }
        return mode.equals("embedded") && supervisor.alive("postgres");
    }

    /** The root pid whose descendants are PostgreSQL (the postmaster, or the embedded one's Java launcher). */
    long rootPid() {
        String mode = mode();
        Optional<Long> pid = mode.startsWith("debian") ? postmasterPid() : supervisor.pid("postgres");
        return pid.orElseThrow(() -> Console.fail("PostgreSQL is not running"));
    }

    public void stop() {
        String mode = mode();
        if (mode.startsWith("debian")) {
            Path bin = Path.of(mode.substring("debian ".length()));
            if (Files.exists(home().resolve("postgres/postmaster.pid"))) {
                Console.say("stopping PostgreSQL");
                if (asPostgresUser(
                                List.of(
                                        bin.resolve("pg_ctl").toString(),
                                        "-D",
                                        home().resolve("postgres").toString(),
                                        "-m",
                                        "fast",
                                        "-w",
                                        "-t",
                                        "60",
                                        "stop"),
                                null)
                        != 0) {
                    Console.warn("pg_ctl stop failed");
                }
            }
        } else if (mode.equals("embedded")) {
            supervisor.stop("postgres", 60);
        }
        Supervisor.delete(layout.state("postgres.mode"));
    }

    /**
     * Where Debian's PostgreSQL keeps its data, sockets and log: under var/, unless the OS user postgres cannot
     * reach var/ (a clone under /root or in a mktemp -d directory): then a directory of its own under /var/tmp.
     */
    Path home() {
        return read(layout.state("postgres.home")).map(Path::of).orElse(layout.var());
    }

    Path fallbackHome() {
        try {
            byte[] digest = MessageDigest.getInstance("MD5")
                    .digest(layout.root().toString().getBytes(StandardCharsets.UTF_8));
            return Path.of("/var/tmp/pagora-postgres-"
                    + HexFormat.of().formatHex(digest).substring(0, 12));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    Path sockets() {
        return home().equals(layout.var()) ? layout.run().resolve("pgsocket") : home().resolve("pgsocket");
    }

    /** Runs psql as the superuser on the local socket; its status. */
    public int psql(String database, String sql, Path errors) {
        Path bin = Path.of(mode().substring("debian ".length()));
        return asPostgresUser(
                List.of(
                        bin.resolve("psql").toString(),
                        "-h",
                        sockets().toString(),
                        "-p",
                        Integer.toString(PORT),
                        "-U",
                        "postgres",
                        "-d",
                        database,
                        "-v",
                        "ON_ERROR_STOP=1",
                        "-qtA",
                        "-c",
                        sql),
                errors);
    }

    private void startDebian(Path bin) {
        chooseHome();
        Path home = home();
        Path data = home.resolve("postgres");
        Path pgLog = home.equals(layout.var()) ? layout.log("postgres") : home.resolve("postgres.log");
        try {
            Files.createDirectories(data);
            Files.createDirectories(sockets());
            if (!Files.exists(pgLog)) {
                Files.createFile(pgLog);
            }
            if (root()) {
                Exec.run(
                        List.of("chown", "postgres:", data.toString(), sockets().toString(), pgLog.toString()));
            }
            if (!pgLog.equals(layout.log("postgres"))) {
                Files.deleteIfExists(layout.log("postgres"));
                Files.createSymbolicLink(layout.log("postgres"), pgLog);
            }
            Exec.run(List.of("chmod", "700", data.toString()));
        } catch (IOException e) {
            throw Console.fail("could not prepare PostgreSQL's directories under %s: %s", home, e.getMessage());
        }
        if (!Files.exists(data.resolve("PG_VERSION"))) {
            Console.say("initdb %s", data);
            List<String> initdb = List.of(
                    bin.resolve("initdb").toString(),
                    "-D",
                    data.toString(),
                    "-U",
                    "postgres",
                    "--auth-local=trust",
                    "--auth-host=scram-sha-256",
                    "-E",
                    "UTF8");
            List<String> withLocale = new ArrayList<>(initdb);
            withLocale.add("--locale=C.UTF-8");
            if (asPostgresUser(withLocale, pgLog) != 0 && asPostgresUser(initdb, pgLog) != 0) {
                throw Console.fail("initdb failed (log: %s)", pgLog);
            }
        }
        Console.say("starting PostgreSQL (%s) on %s:%d, data %s", bin, Layout.HOST, PORT, data);
        String options = "-c listen_addresses=%s -c port=%d -c unix_socket_directories=%s -c max_connections=200 %s"
                .formatted(Layout.HOST, PORT, sockets(), settings.text("PG_TUNING"));
        if (asPostgresUser(
                        List.of(
                                bin.resolve("pg_ctl").toString(),
                                "-D",
                                data.toString(),
                                "-l",
                                pgLog.toString(),
                                "-w",
                                "-t",
                                "60",
                                "-o",
                                options,
                                "start"),
                        null)
                != 0) {
            System.err.println(Supervisor.tail(pgLog, 30));
            throw Console.fail("PostgreSQL did not start (log: %s)", pgLog);
        }
        write(layout.state("postgres.mode"), "debian " + bin);
        createRoleAndDatabase();
    }

    private void createRoleAndDatabase() {
        Path errors = layout.log("postgres-setup");
        if (!exists("SELECT 1 FROM pg_roles WHERE rolname = '" + USER + "'")) {
            requireOk(psql("postgres", "CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'", errors), errors);
        }
        if (!exists("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
            requireOk(psql("postgres", "CREATE DATABASE " + DATABASE + " OWNER " + USER, errors), errors);
        }
        requireOk(psql("postgres", LocalPostgres.GRANT_CHECKPOINT.formatted(USER), errors), errors);
    }

    private boolean exists(String query) {
        Path bin = Path.of(mode().substring("debian ".length()));
        Exec.Result result = Exec.capture(asPostgresUserCommand(List.of(
                bin.resolve("psql").toString(),
                "-h",
                sockets().toString(),
                "-p",
                Integer.toString(PORT),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-qtA",
                "-c",
                query)));
        return result.ok() && result.output().strip().equals("1");
    }

    private static void requireOk(int status, Path errors) {
        if (status != 0) {
            throw Console.fail("psql failed (log: %s)", errors);
        }
    }

    private void chooseHome() {
        Supervisor.delete(layout.state("postgres.home"));
        if (!root()) {
            return; // PostgreSQL runs as this user, who owns var/
        }
        Path data = layout.var().resolve("postgres");
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw Console.fail("could not create %s: %s", data, e.getMessage());
        }
        Exec.run(List.of("chown", "postgres:", data.toString()));
        if (Exec.run(List.of(
                        "su", "postgres", "-s", "/bin/sh", "-c", "test -w '" + data + "' && test -x '" + data + "'"))
                == 0) {
            return;
        }
        Path home = fallbackHome();
        Console.warn(
                "user 'postgres' cannot enter %s (a directory closed to other users): PostgreSQL's data, sockets"
                        + " and log go to %s instead (removed again by a fresh demo or bench)",
                layout.var(), home);
        try {
            Files.createDirectories(home);
        } catch (IOException e) {
            throw Console.fail("could not create %s: %s", home, e.getMessage());
        }
        Exec.run(List.of("chmod", "755", home.toString()));
        Exec.run(List.of("chown", "postgres:", home.toString()));
        write(layout.state("postgres.home"), home.toString());
    }

    private void startEmbedded() {
        Console.say("no usable Debian PostgreSQL server: starting the embedded one (local-runtime LocalPostgres)");
        Supervisor.Launched launched = supervisor.launch(
                "postgres",
                tools.command(
                        List.of("-Xmx256m"),
                        "postgres",
                        List.of(
                                "--data-dir=" + layout.var().resolve("postgres-embedded"),
                                "--port=" + PORT,
                                "--user=" + USER,
                                "--password=" + PASSWORD,
                                "--database=" + DATABASE)),
                java.util.Map.of(),
                true);
        write(layout.state("postgres.mode"), "embedded");
        supervisor.waitForLogLine("postgres", launched.logOffset(), "LocalPostgres: ready", READY_SECONDS);
    }

    private Optional<Long> postmasterPid() {
        return read(home().resolve("postgres/postmaster.pid"))
                .map(text -> text.lines().findFirst().orElse(""))
                .filter(line -> line.matches("\\d+"))
                .map(Long::parseLong);
    }

    /** As root, a command runs as the OS user postgres (quoted for su's /bin/sh). */
    private int asPostgresUser(List<String> command, Path log) {
        return Exec.capture(asPostgresUserCommand(command), java.util.Map.of(), log)
                .status();
    }

    static List<String> asPostgresUserCommand(List<String> command) {
        if (!root()) {
            return command;
        }
        StringBuilder quoted = new StringBuilder();
        for (String word : command) {
            quoted.append('\'').append(word.replace("'", "'\\''")).append("' ");
        }
        return List.of(
                "su", "postgres", "-s", "/bin/sh", "-c", quoted.toString().strip());
    }

    public static Optional<String> read(Path file) {
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file).strip())
                    : Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    public static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text + "\n");
        } catch (IOException e) {
            throw Console.fail("could not write %s: %s", file, e.getMessage());
        }
    }
}
