package io.pagora.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TigerBeetle server release ({@code major.minor.patch}), read from what {@code tigerbeetle version}
 * prints, and the pin every test server must meet.
 *
 * <p>Why a pin at all: the 0.16.30 server panics ({@code reached unreachable code} at
 * {@code src/lsm/table_memory.zig:104}, a full mutable table) or hangs under this project's own contract
 * and randomized suites; 0.16.78, the last 0.16 release, does not, and still accepts the 0.16.30 Java
 * client (servers accept clients from 0.16.4 on). A test run against an older server would report that
 * server's bugs as ours, so the harnesses refuse it before starting it.
 */
public record TigerBeetleVersion(int major, int minor, int patch) implements Comparable<TigerBeetleVersion> {

    /** The oldest server the tests accept, as text (a constant, for annotations and javadoc). */
    public static final String PINNED = "0.16.78";

    /** e.g. {@code TigerBeetle version 0.16.78+c3d9b09}; anything may surround it (warnings on stderr). */
    private static final Pattern VERSION_LINE =
            Pattern.compile("TigerBeetle version (\\d{1,6})\\.(\\d{1,6})\\.(\\d{1,6})(?![\\d.])");

    private static final Comparator<TigerBeetleVersion> ORDER = Comparator.comparingInt(TigerBeetleVersion::major)
            .thenComparingInt(TigerBeetleVersion::minor)
            .thenComparingInt(TigerBeetleVersion::patch);
    /** {@code version} prints a line or two; more than this is not a TigerBeetle binary. */
    private static final int OUTPUT_BYTES_MAX = 64 * 1024;
    /** Quoted into failure messages: enough to recognise the output, never a wall of text. */
    private static final int QUOTED_CHARS_MAX = 400;

    private static final long VERSION_TIMEOUT_SECONDS = 30;
    /** The oldest server the tests accept; see the class comment for why. */
    public static final TigerBeetleVersion PIN = parse("TigerBeetle version " + PINNED);

    public TigerBeetleVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("a version has no negative parts: " + major + "." + minor + "." + patch);
        }
    }

    /**
     * The release named in the output of {@code tigerbeetle version}.
     *
     * @throws IllegalArgumentException if the output names no release
     */
    public static TigerBeetleVersion parse(String versionOutput) {
        Matcher matcher = VERSION_LINE.matcher(versionOutput);
        if (!matcher.find()) {
            throw new IllegalArgumentException(
                    "no \"TigerBeetle version X.Y.Z\" in the output of `tigerbeetle version`: \""
                            + quoted(versionOutput) + "\"");
        }
        return new TigerBeetleVersion(
                Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)),
                Integer.parseInt(matcher.group(3)));
    }

    /** Runs {@code binary version} and parses what it prints. */
    public static TigerBeetleVersion of(Path binary) {
        List<String> command = List.of(binary.toString(), "version");
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (InputStream stdout = process.getInputStream()) {
                output = new String(stdout.readNBytes(OUTPUT_BYTES_MAX), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        String.join(" ", command) + " did not finish within " + VERSION_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " exited " + process.exitValue() + ": \"" + quoted(output) + "\"");
            }
            return parse(output);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /**
     * The binary's release, printed for the run's log; refused loudly when older than {@link #PIN}.
     *
     * @param who names the harness in the printed line, e.g. {@code TigerBeetleServer}
     * @throws IllegalStateException if the binary is older than the pin or does not say what it is
     */
    public static TigerBeetleVersion requirePinned(Path binary, String who) {
        TigerBeetleVersion found = of(binary);
        System.out.println("[" + who + "] " + binary + " is TigerBeetle " + found + " (pin: " + PIN
                + " or newer, with the tigerbeetle-java 0.16.30 client)");
        found.requireAtLeast(PIN, binary.toString());
        return found;
    }

    /**
     * Refuses a server older than {@code pin}.
     *
     * @param source where this version came from, for the message
     * @throws IllegalStateException naming both versions and why the pin exists
     */
    public void requireAtLeast(TigerBeetleVersion pin, String source) {
        if (compareTo(pin) < 0) {
            throw new IllegalStateException("TigerBeetle " + this + " (" + source + ") is older than the pinned " + pin
                    + ": the 0.16.30 server panics (reached unreachable code, src/lsm/table_memory.zig:104) under this"
                    + " project's contract suite. Point TIGERBEETLE_BIN at a " + pin + " (or newer 0.16) server.");
        }
    }

    @Override
    public int compareTo(TigerBeetleVersion other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }

    private static String quoted(String text) {
        String oneLine = text.strip().replace('\n', ' ');
        return oneLine.length() <= QUOTED_CHARS_MAX ? oneLine : oneLine.substring(0, QUOTED_CHARS_MAX) + "…";
    }
}
