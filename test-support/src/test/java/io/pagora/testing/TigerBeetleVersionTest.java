package io.pagora.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's server pin: it reads the release from what {@code tigerbeetle version} prints (official
 * builds add {@code +commit}; other lines may surround it), orders releases numerically (0.16.9 before
 * 0.16.78), accepts the pin and newer, and refuses an older server with a message naming both releases
 * and the reason for the pin. Needs no TigerBeetle: the binaries here are two-line shell scripts.
 */
class TigerBeetleVersionTest {

    @Test
    void readsTheReleaseFromAnOfficialBuildsOutput() {
        assertThat(TigerBeetleVersion.parse("TigerBeetle version 0.16.78+c3d9b09\n"))
                .isEqualTo(new TigerBeetleVersion(0, 16, 78));
    }

    @Test
    void readsTheReleaseAmongOtherLines() {
        String output = """
                2026-01-01 00:00:00.000Z error(multiversioning): binary does not contain valid multiversion data
                TigerBeetle version 0.16.30

                build.mode=builtin.OptimizeMode.ReleaseSafe
                """;
        assertThat(TigerBeetleVersion.parse(output)).isEqualTo(new TigerBeetleVersion(0, 16, 30));
    }

    @Test
    void refusesOutputThatNamesNoRelease() {
        assertThatThrownBy(() -> TigerBeetleVersion.parse("bash: tigerbeetle: command not found"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TigerBeetle version X.Y.Z")
                .hasMessageContaining("command not found");
        assertThatThrownBy(() -> TigerBeetleVersion.parse("TigerBeetle version 0.16"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TigerBeetleVersion.parse("TigerBeetle version 0.16.78.1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void quotesAtMostAShortPrefixOfUnrecognisedOutput() {
        String wall = "x".repeat(100_000);
        assertThatThrownBy(() -> TigerBeetleVersion.parse(wall))
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600));
    }

    @Test
    void ordersReleasesNumericallyNotAsText() {
        List<TigerBeetleVersion> ascending = List.of(
                new TigerBeetleVersion(0, 16, 9),
                new TigerBeetleVersion(0, 16, 30),
                new TigerBeetleVersion(0, 16, 78),
                new TigerBeetleVersion(0, 17, 0),
                new TigerBeetleVersion(1, 0, 0));
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertThat(ascending.get(i))
                    .as("%s < %s", ascending.get(i), ascending.get(i + 1))
                    .isLessThan(ascending.get(i + 1));
        }
        assertThat(new TigerBeetleVersion(0, 16, 78)).isEqualByComparingTo(TigerBeetleVersion.PIN);
    }

    @Test
    void thePinIsTheLast016Release() {
        assertThat(TigerBeetleVersion.PIN).hasToString("0.16.78");
    }

    @Test
    void acceptsThePinAndNewerAndRefusesOlder() {
        assertThatCode(() -> new TigerBeetleVersion(0, 16, 78).requireAtLeast(TigerBeetleVersion.PIN, "test"))
                .doesNotThrowAnyException();
        assertThatCode(() -> new TigerBeetleVersion(0, 17, 1).requireAtLeast(TigerBeetleVersion.PIN, "test"))
                .doesNotThrowAnyException();
        assertRefused(
                () -> new TigerBeetleVersion(0, 16, 30).requireAtLeast(TigerBeetleVersion.PIN, "/opt/tb"),
                "TigerBeetle 0.16.30 (/opt/tb) is older than the pinned 0.16.78",
                "table_memory.zig:104");
    }

    @Test
    void refusesABinaryOlderThanThePin(@TempDir Path directory) throws IOException {
        Path old = script(directory, "old-tigerbeetle", "echo 'TigerBeetle version 0.16.30+1a2b3c4'");
        assertThat(TigerBeetleVersion.of(old)).isEqualTo(new TigerBeetleVersion(0, 16, 30));
        assertRefused(
                () -> TigerBeetleVersion.requirePinned(old, "TigerBeetleVersionTest"),
                "0.16.30",
                "older than the pinned 0.16.78");
    }

    @Test
    void acceptsABinaryAtThePin(@TempDir Path directory) throws IOException {
        Path pinned = script(directory, "tigerbeetle", "echo 'TigerBeetle version 0.16.78+c3d9b09'");
        assertThat(TigerBeetleVersion.requirePinned(pinned, "TigerBeetleVersionTest"))
                .isEqualTo(TigerBeetleVersion.PIN);
    }

    @Test
    void aBinaryThatFailsToSayItsVersionIsAnError(@TempDir Path directory) throws IOException {
        Path broken = script(directory, "broken", "echo 'cannot open shared object' >&2; exit 127");
        assertRefused(() -> TigerBeetleVersion.of(broken), "exited 127", "cannot open shared object");
    }

    private static Path script(Path directory, String name, String body) throws IOException {
        Path script = directory.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /** The server is refused (IllegalStateException) with a message that says all of {@code reasons}. */
    private static void assertRefused(ThrowingCallable call, String... reasons) {
        assertThatThrownBy(call)
                .isInstanceOf(IllegalStateException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(reasons));
    }
}
