package io.pagora.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The module map is complete: every module of the build with main code has its {@link PagoraModule}, whose root
 * package is where that code lives, and a row in docs/ARCHITECTURE.md's module table.
 */
class ModuleMapTest {

    static final Path ROOT = ArchitectureMapTest.ROOT;
    static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void everyModuleWithMainCodeIsInTheMap() {
        List<String> unmapped = new ArrayList<>();
        for (String module : modulesWithMainCode()) {
            boolean mapped = Arrays.stream(PagoraModule.values())
                    .anyMatch(m -> Files.isDirectory(
                            mainJava(module).resolve(m.rootPackage().replace('.', '/'))));
            if (!mapped) {
                unmapped.add(module);
            }
        }
        assertThat(modulesWithMainCode()).as("modules with main code").hasSizeGreaterThan(10);
        assertThat(unmapped)
                .as("modules whose main code is in no PagoraModule's root package")
                .isEmpty();
    }

    @Test
    void everyModuleHasARowInTheArchitecturePage() {
        String page =
                ArchitectureMapTest.read(ROOT.resolve("docs/ARCHITECTURE.md")).toString();
        List<String> missing = modules().stream()
                .filter(m -> !page.contains("| `" + m + "` |"))
                .toList();
        assertThat(missing)
                .as("modules without a row in docs/ARCHITECTURE.md's module table")
                .isEmpty();
    }

    static List<String> modules() {
        try {
            Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
            List<String> modules = new ArrayList<>();
            while (m.find()) {
                modules.add(m.group(1));
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> modulesWithMainCode() {
        return modules().stream().filter(m -> Files.isDirectory(mainJava(m))).toList();
    }

    static Path mainJava(String module) {
        return ROOT.resolve(module).resolve("src/main/java");
    }
}
