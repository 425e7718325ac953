package io.pagora.local.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * local-runtime's own tools (seed, report, bench, verify, chaos-check, ...), each run as a JVM of its own with
 * the heap it needs: the launcher's JVM stays small, and a tool's failure or memory cannot take it down.
 */
public final class Tools {

    private final Layout layout;

    public Tools(Layout layout) {
        this.layout = layout;
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public Path jar(String module) {
        return layout.root().resolve(module).resolve("target").resolve(module + ".jar");
    }

    public List<String> command(List<String> jvmOptions, String tool, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar("local-runtime").toString());
        command.add(tool);
        command.addAll(arguments);
        return command;
    }

    /** Runs a tool to its end: its standard output to {@code out} (null: this console), its errors appended to {@code errors}. */
    public int run(List<String> jvmOptions, String tool, List<String> arguments, Path out, Path errors) {
        return await(
                new ProcessBuilder(command(jvmOptions, tool, arguments))
                        .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
                        .redirectOutput(
                                out == null
                                        ? ProcessBuilder.Redirect.INHERIT
                                        : ProcessBuilder.Redirect.to(out.toFile())),
                tool);
    }

    /** Runs a tool to its end, its output and errors together into {@code log}. */
    public int runLogged(List<String> jvmOptions, String tool, List<String> arguments, Path log) {
        return await(
                new ProcessBuilder(command(jvmOptions, tool, arguments))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())),
                tool);
    }

    private static int await(ProcessBuilder builder, String tool) {
        try {
            return builder.start().waitFor();
        } catch (IOException e) {
            throw Console.fail("could not run local-runtime %s: %s", tool, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while running local-runtime %s", tool);
        }
    }

    public Process start(List<String> jvmOptions, String tool, List<String> arguments, Path out, Path errors) {
        ProcessBuilder builder = new ProcessBuilder(command(jvmOptions, tool, arguments))
                .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
                .redirectOutput(out == null ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.to(out.toFile()));
        try {
            return builder.start();
        } catch (IOException e) {
            throw Console.fail("could not run local-runtime %s: %s", tool, e.getMessage());
        }
    }
}
