package io.pagora.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository itself (infra/, docker-compose.yml), found from the test's working directory. */
public final class Repository {

    private Repository() {}

    /** The repository root: the nearest directory, from the working directory up, holding infra/ and pom.xml. */
    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("infra"))
                    && Files.isRegularFile(dir.resolve("pom.xml"))
                    && Files.isRegularFile(dir.resolve("docker-compose.yml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (infra/, pom.xml, docker-compose.yml) above "
                + Path.of("").toAbsolutePath());
    }

    public static Path path(String relative) {
        return root().resolve(relative);
    }

    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
