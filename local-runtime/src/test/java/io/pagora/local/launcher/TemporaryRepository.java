package io.pagora.local.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** An empty directory shaped like the repository (pom.xml, infra/local/pagora), for a {@link Layout} in a test. */
public final class TemporaryRepository {

    private TemporaryRepository() {}

    public static Layout create() {
        try {
            Path root = Files.createTempDirectory("pagora-launcher-test");
            Files.writeString(root.resolve("pom.xml"), "<project/>");
            Files.createDirectories(root.resolve("infra/local"));
            Files.writeString(root.resolve("infra/local/pagora"), "#!/bin/sh\n");
            root.toFile().deleteOnExit();
            return new Layout(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
