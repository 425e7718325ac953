package io.pagora.local.launcher;

import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.Postgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JDK 25's ahead-of-time cache (JEPs 483, 514, 515) for each service, built by the launcher where missing: the classes
 * a service loads and links to start, read from a file instead of parsed and verified again, and their method profiles.
 * Spring Boot's recipe: the executable jar extracted (a cache only covers classes of the plain class path, not of a jar
 * nested in a jar), then a training run that starts the application context and exits ({@code spring.context.exit=
 * onRefresh}) while the JVM writes the cache. The training run is a real start against the running PostgreSQL and
 * Kafka (it migrates the schema as the start would), so it runs where the service is about to start.
 *
 * <p>The cache is valid for one jar, one JDK and one set of JVM options: a stamp of the three is written beside it and a
 * stale cache is trained again. Without JDK 25, or if the training fails, the service starts from its jar as before
 * (a warning, never a failed {@code up}).
 */
public final class AotCache {

    /** A training run is a service's start; the slowest seen on the 2-core machine took under a minute. */
    private static final int TRAINING_SECONDS_MAX = 180;

    private final Layout layout;
    private final Tools tools;

    public AotCache(Layout layout, Tools tools) {
        this.layout = layout;
        this.tools = tools;
    }

    static boolean supported() {
        return Runtime.version().feature() >= 25;
    }

    /**
     * What follows the JVM options on a service's command line: the cache and the extracted jar (trained first if
     * missing or stale), or the executable jar.
     */
    public List<String> jarArguments(
            String service, List<String> jvmOptions, List<String> arguments, Map<String, String> environment) {
        Path jar = tools.jar(service);
        if (!supported()) {
            return List.of("-jar", jar.toString());
        }
        Path directory = layout.var().resolve("aot").resolve(service);
        Path cache = directory.resolve("app.aot");
        Path extracted = directory.resolve(service + ".jar");
        Path stampFile = directory.resolve("stamp");
        String stamp = stamp(jar, jvmOptions);
        boolean fresh = Files.isRegularFile(cache)
                && Files.isRegularFile(extracted)
                && Postgres.read(stampFile).orElse("").equals(stamp);
        if (!fresh && !train(service, jar, directory, jvmOptions, arguments, environment)) {
            return List.of("-jar", jar.toString());
        }
        Postgres.write(stampFile, stamp);
        return List.of("-XX:AOTCache=" + cache, "-jar", extracted.toString());
    }

    private boolean train(
            String service,
            Path jar,
            Path directory,
            List<String> jvmOptions,
            List<String> arguments,
            Map<String, String> environment) {
        Platform.deleteTree(directory);
        Platform.createDirectories(directory);
        Path log = layout.log(service + "-aot-training");
        Console.say("%s: building its AOT cache (a training start, once per build; log %s)", service, log);
        long start = System.nanoTime();
        Exec.Result extract = Exec.capture(
                List.of(
                        Tools.java(),
                        "-Djarmode=tools",
                        "-jar",
                        jar.toString(),
                        "extract",
                        "--destination",
                        directory.toString()),
                Map.of(),
                log);
        if (!extract.ok()) {
            Console.warn("%s: could not extract its jar for the AOT cache (log %s); starting without", service, log);
            return false;
        }
        List<String> command = new ArrayList<>();
        command.add(Tools.java());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-XX:AOTCacheOutput=" + directory.resolve("app.aot"),
                "-Dspring.context.exit=onRefresh",
                "-jar",
                directory.resolve(service + ".jar").toString()));
        command.addAll(arguments);
        Exec.Result training = Exec.capture(command, environment, log, TRAINING_SECONDS_MAX);
        if (!training.ok() || !Files.isRegularFile(directory.resolve("app.aot"))) {
            Console.warn(
                    "%s: its AOT training run failed (status %d, log %s); starting without",
                    service, training.status(), log);
            return false;
        }
        Console.say(
                "%s: AOT cache built in %.0f s (%d MB)",
                service, (System.nanoTime() - start) / 1e9, size(directory.resolve("app.aot")) >> 20);
        return true;
    }

    /** What the cache was trained for: the jar (path, size, time), the JDK and the JVM options. */
    static String stamp(Path jar, List<String> jvmOptions) {
        try {
            return "%s %d %d %s %s"
                    .formatted(
                            jar,
                            Files.size(jar),
                            Files.getLastModifiedTime(jar).toMillis(),
                            Runtime.version(),
                            String.join(" ", jvmOptions));
        } catch (IOException e) {
            throw Console.fail("cannot read %s: %s", jar, e.getMessage());
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
