package io.pagora.local.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A service's AOT cache is an optimisation, never a condition of {@code up}: a cache whose training fails (here a jar
 * that is not a Spring Boot executable jar) leaves the service starting from its jar; a cache trained for this jar, JDK
 * and JVM options is used as it is; a rebuilt jar makes it stale (trained again, here failing again: from the jar).
 */
class AotCacheTest {

    private static final List<String> JVM_OPTIONS = List.of("-Xmx64m");

    @Test
    void aFailedTrainingStartsTheServiceFromItsJar() throws IOException {
        Layout layout = TemporaryRepository.create();
        Tools tools = new Tools(layout);
        Path jar = notAnExecutableJar(tools, "payment-api");

        List<String> arguments =
                new AotCache(layout, tools).jarArguments("payment-api", JVM_OPTIONS, List.of(), Map.of());

        assertThat(arguments).containsExactly("-jar", jar.toString());
    }

    @Test
    void aCacheTrainedForThisJarIsUsedUntilTheJarChanges() throws IOException {
        assumeTrue(AotCache.supported(), "before JDK 25 every service starts from its jar: the test above covers it");
        Layout layout = TemporaryRepository.create();
        Tools tools = new Tools(layout);
        Path jar = notAnExecutableJar(tools, "clearing-service");
        AotCache aot = new AotCache(layout, tools);
        aot.jarArguments("clearing-service", JVM_OPTIONS, List.of(), Map.of());
        // What a successful training leaves: the extracted jar and the cache beside the stamp the call wrote.
        Path directory = layout.var().resolve("aot/clearing-service");
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("clearing-service.jar"), "extracted");
        Files.writeString(directory.resolve("app.aot"), "cache");
        Files.writeString(directory.resolve("stamp"), AotCache.stamp(jar, JVM_OPTIONS));

        assertThat(aot.jarArguments("clearing-service", JVM_OPTIONS, List.of(), Map.of()))
                .containsExactly(
                        "-XX:AOTCache=" + directory.resolve("app.aot"),
                        "-jar",
                        directory.resolve("clearing-service.jar").toString());

        Files.setLastModifiedTime(
                jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        assertThat(aot.jarArguments("clearing-service", JVM_OPTIONS, List.of(), Map.of()))
                .as("a rebuilt jar: trained again (failing here), so from the jar")
                .containsExactly("-jar", jar.toString());
    }

    private static Path notAnExecutableJar(Tools tools, String service) throws IOException {
        Path jar = tools.jar(service);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "not a jar");
        return jar;
    }
}
