package io.pagora.local.launcher;

import io.pagora.local.cli.Options;
import io.pagora.local.launcher.commands.BenchRun;
import io.pagora.local.launcher.commands.Chaos;
import io.pagora.local.launcher.commands.Demo;
import io.pagora.local.launcher.commands.K6;
import io.pagora.local.launcher.commands.Load;
import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.Postgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code infra/local/pagora}'s commands. The bash script finds a JDK, builds the jars when their sources changed
 * and hands over here: every command (demo, bench, chaos, up, down, ...) is this class's. A {@link Console.Failure}
 * ends a command with {@code [pagora] ERROR: <why>} and status 1; a command that starts its own platform (demo,
 * bench, chaos, walkthrough) stops it again however it ends, a signal included.
 */
public final class Launcher {

    /** The commands that start a platform, and so may start the scaled one (docs/scale-out.md). */
    static final List<String> SCALABLE = List.of("demo", "bench", "chaos", "up");

    static final List<String> COMMANDS = List.of(
            "demo",
            "bench",
            "chaos",
            "up",
            "certs",
            "down",
            "status",
            "verify",
            "logs",
            "walkthrough",
            "clean",
            "help");

    private final Platform platform;
    private final AtomicBoolean owned = new AtomicBoolean();

    Launcher(Platform platform) {
        this.platform = platform;
    }

    public static void main(String[] args) {
        int status;
        try {
            Layout layout = new Layout(Path.of(System.getProperty("pagora.root", "."))
                    .toAbsolutePath()
                    .normalize());
            Settings settings = Settings.fromEnvironment(System.getenv());
            status = new Launcher(new Platform(layout, settings)).run(Arrays.asList(args));
        } catch (Console.Failure | Options.Refused failure) {
            System.err.println("[pagora] ERROR: " + failure.getMessage());
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * The command and the options every command knows: {@code --help} (or {@code -h}) anywhere shows the command's
     * help, {@code --scale} anywhere starts the scaled platform; the rest are the command's own.
     */
    record CommandLine(String command, boolean help, boolean scale, List<String> options) {

        static CommandLine parse(List<String> args) {
            String command = args.isEmpty() ? "demo" : args.get(0);
            List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
            Options options = new Options(command, rest);
            boolean help = options.given("help") || options.arguments().contains("-h");
            return new CommandLine(
                    command,
                    help,
                    options.flag("scale"),
                    rest.stream().filter(option -> !option.equals("--scale")).toList());
        }
    }

    int run(List<String> args) {
        CommandLine line = CommandLine.parse(args);
        String command = line.command();
        List<String> options = line.options();
        if (line.help()) {
            System.out.println(help(command));
            return 0;
        }
        if (!COMMANDS.contains(command) && !command.equals("--help") && !command.equals("-h")) {
            throw Console.fail("unknown command '%s' (%s)", command, String.join("|", COMMANDS));
        }
        if (line.scale()) {
            if (!SCALABLE.contains(command)) {
                throw Console.fail("--scale is an option of %s, not of %s", String.join(", ", SCALABLE), command);
            }
            List<String> rest = new java.util.ArrayList<>(List.of(command));
            rest.addAll(options);
            return new Launcher(platform.with(platform.settings.with("PAGORA_SCALE", "1"))).run(rest);
        }
        platform.settings.validate();
        Platform.createDirectories(platform.layout.run());
        Platform.createDirectories(platform.layout.log());
        return switch (command) {
            case "demo" -> owning(() -> new Demo(platform).run(flag(options, "keep", "demo")));
            case "bench" -> owning(() -> BenchRun.run(platform, options));
            case "chaos" -> owning(() -> Chaos.run(platform, options));
            case "walkthrough" -> owning(() -> walkthrough(options));
            case "up" -> up(options);
            case "certs" -> certs(options);
            case "down" -> none(options, "down", platform::down);
            case "status" -> none(options, "status", platform.statusReport::status);
            case "verify" -> verify(options);
            case "clean" -> none(options, "clean", platform::clean);
            case "logs" -> {
                platform.statusReport.logs(options);
                yield 0;
            }
            default -> {
                System.out.println(helpText());
                yield 0;
            }
        };
    }

    /** A command that starts its own platform: a signal (Ctrl-C, kill) stops the platform before the JVM exits. */
    private int owning(Command command) {
        owned.set(true);
        Thread stopper = new Thread(() -> {
            if (owned.get()) {
                System.err.println("[pagora] interrupted: stopping the platform");
                platform.down();
            }
        });
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            return command.run();
        } finally {
            owned.set(false);
        }
    }

    interface Command {
        int run();
    }

    private int none(List<String> options, String name, Runnable action) {
        new Options(name, options).rejectUnknown();
        action.run();
        return 0;
    }

    /** A command whose one option is the bare {@code flag}. */
    private static boolean flag(List<String> arguments, String flag, String command) {
        Options options = new Options(command, arguments);
        boolean given = options.flag(flag);
        options.rejectUnknown();
        return given;
    }

    private int up(List<String> options) {
        Platform started = flag(options, "plain-http", "up")
                ? platform.with(platform.settings.with("PAGORA_PLAIN_HTTP", "1"))
                : platform;
        started.up();
        return 0;
    }

    private int certs(List<String> arguments) {
        Certs.Options options = Certs.Options.parse(arguments);
        if (options.signing().isPresent()) {
            Certs.Signing signing = options.signing().get();
            if (Settings.seededIspbs(platform.settings.integer("BANKS")).contains(signing.ispb())) {
                Console.warn(
                        "%08d is a bank the launcher seeds and the bank simulator serves (BANKS=%d): a client on it"
                                + " shares that bank's stream and answers; an outside bank takes an ISPB of its own"
                                + " (docs/operations.md)",
                        signing.ispb(), platform.settings.integer("BANKS"));
            }
            platform.certs().sign(signing);
            return 0;
        }
        List<Long> ispbs = options.ispbs();
        platform.certs().ensure(ispbs.isEmpty() ? Settings.seededIspbs(platform.settings.integer("BANKS")) : ispbs);
        try (var clients = Files.list(platform.layout.participants())) {
            Console.say(
                    "certs: CA %s, server %s, clients in %s: %s",
                    platform.layout.tls().resolve("ca.crt"),
                    platform.layout.tls().resolve("server.crt"),
                    platform.layout.participants(),
                    String.join(
                            " ",
                            clients.map(path -> path.getFileName().toString())
                                    .filter(name -> name.endsWith(".crt"))
                                    .sorted()
                                    .toList()));
        } catch (IOException e) {
            throw Console.fail("cannot list %s: %s", platform.layout.participants(), e.getMessage());
        }
        return 0;
    }

    /** The demo report's four checks on the running platform, now (local-runtime's Verify). */
    private int verify(List<String> options) {
        new Options("verify", options).rejectUnknown();
        if (!platform.supervisor.alive("reporting-service")) {
            throw Console.fail("the platform is not running ('infra/local/pagora up' or 'demo --keep' first)");
        }
        if (!Files.exists(platform.layout.accounts())) {
            throw Console.fail(
                    "no %s: verify checks the seeded banks and customers ('demo --keep')", platform.layout.accounts());
        }
        platform.certs()
                .ensure(Load.accounts(platform.layout.accounts(), "bank").stream()
                        .map(Long::parseLong)
                        .toList());
        int status = platform.tools.run(
                List.of("-Xmx1g", "--enable-native-access=ALL-UNNAMED"),
                "verify",
                List.of(
                        "--accounts=" + platform.layout.accounts(),
                        "--accepted=" + platform.layout.demo().resolve("k6-answers.log"),
                        "--bootstrap-servers=" + platform.kafkaBootstrap(),
                        "--in-flight-seconds=" + platform.settings.integer("VERIFY_IN_FLIGHT_SECONDS"),
                        "--account-pages-max=" + platform.settings.integer("VERIFY_ACCOUNT_PAGES_MAX"),
                        "--jdbc-url=" + Postgres.JDBC_URL,
                        "--db-user=" + Postgres.USER,
                        "--db-password=" + Postgres.PASSWORD,
                        "--ledger-backend=" + platform.runningLedger(),
                        "--tigerbeetle-addresses=" + platform.tigerBeetleAddresses()),
                null,
                platform.layout.log("verify"));
        if (status != 0) {
            System.err.println(Supervisor.tail(platform.layout.log("verify"), 5));
            throw Console.fail(
                    "verify: a check failed or could not run (exit %d; log %s)", status, platform.layout.log("verify"));
        }
        return 0;
    }

    /** The documentation's marked blocks, as typed, on a fresh platform; then stop (local-runtime's Walkthrough). */
    private int walkthrough(List<String> options) {
        new Options("walkthrough", options).rejectUnknown();
        platform.refusePlainHttp("walkthrough");
        platform.removeData("the walk-through");
        try {
            platform.up();
            K6 k6 = K6.require(platform, "the walk-through");
            // The documentation types var/bin/k6, where the launcher installs it: point it at a k6 found elsewhere.
            Path typed = platform.layout.bin().resolve("k6");
            if (!Files.isExecutable(typed)) {
                Platform.createDirectories(platform.layout.bin());
                Files.deleteIfExists(typed);
                Files.createSymbolicLink(typed, k6.binary());
            }
            return platform.tools.run(
                    List.of(),
                    "walkthrough",
                    List.of("--root=" + platform.layout.root()),
                    null,
                    platform.layout.log("walkthrough"));
        } catch (IOException e) {
            throw Console.fail("could not link var/bin/k6: %s", e.getMessage());
        } finally {
            Console.say("walk-through ending: stopping the platform");
            platform.down();
        }
    }

    // ----------------------------------------------------------------------------------------- help

    static String helpText() {
        try (InputStream text = Launcher.class.getResourceAsStream("help.txt")) {
            if (text == null) {
                throw new IllegalStateException("help.txt is missing from the launcher's jar");
            }
            return new String(text.readAllBytes(), StandardCharsets.UTF_8).stripTrailing();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One command's part of the help: from its "infra/local/pagora <command>" line to the next command or blank line. */
    static String help(String command) {
        if (command.equals("help") || command.equals("--help") || command.equals("-h")) {
            return helpText();
        }
        StringBuilder part = new StringBuilder();
        boolean shown = false;
        for (String line : helpText().split("\n", -1)) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("infra/local/pagora")) {
                shown = words.length > 1 && (words[1].equals(command) || words[1].equals("[" + command + "]"));
            }
            if (line.isBlank()) {
                shown = false;
            }
            if (shown) {
                part.append(line).append('\n');
            }
        }
        if (part.isEmpty()) {
            throw Console.fail("no help for '%s': 'infra/local/pagora help' lists every command", command);
        }
        return part.toString().stripTrailing();
    }
}
