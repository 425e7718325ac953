package io.pagora.local.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Short commands the launcher waits for (openssl, pg_ctl, psql, kill, getconf), each with a deadline. */
public final class Exec {

    static final int DEADLINE_SECONDS = 600;

    private Exec() {}

    /** Its output and status. */
    public record Result(int status, String output) {
        public boolean ok() {
            return status == 0;
        }
    }

    public static int run(List<String> command) {
        return capture(command, Map.of(), null).status();
    }

    public static Result capture(List<String> command) {
        return capture(command, Map.of(), null);
    }

    /** Runs to its end (bounded), stdout and stderr together; {@code log} (if given) receives them instead. */
    public static Result capture(List<String> command, Map<String, String> environment, Path log) {
        return capture(command, environment, log, DEADLINE_SECONDS);
    }

    /** As above, within {@code deadlineSeconds}. */
    public static Result capture(List<String> command, Map<String, String> environment, Path log, int deadlineSeconds) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        if (log != null) {
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        try {
            Process process = builder.start();
            String output =
                    log == null ? new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
            if (!process.waitFor(deadlineSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw Console.fail("%s did not end within %ds", command.get(0), deadlineSeconds);
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(127, command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while running %s", command.get(0));
        }
    }

    static boolean onPath(String program) {
        return find(program) != null;
    }

    /** The program's path on the PATH, or null. */
    public static Path find(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String directory : path.split(":")) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, program);
            if (candidate.toFile().canExecute() && candidate.toFile().isFile()) {
                return candidate;
            }
        }
        return null;
    }
}
