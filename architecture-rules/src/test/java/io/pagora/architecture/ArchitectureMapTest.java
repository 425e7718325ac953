package io.pagora.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md's "Where to change what" table is a map a newcomer follows: every name in its "look in"
 * column points at a file or folder that exists. {@code module/…/a/B} is a path under that module ending in
 * {@code a/B}; {@code a/B} is such a path anywhere, or one from the repository root; a bare {@code B} is a file
 * {@code B.*} or a folder {@code B}.
 */
class ArchitectureMapTest {

    static final Path ROOT = repositoryRoot();
    static final Pattern CODE = Pattern.compile("`([^`]+)`");
    static final Set<String> SKIPPED = Set.of("target", "var", "node_modules");
    static final List<String> PATHS = paths();

    @Test
    void everyPlaceTheMapNamesExists() {
        List<String> names = lookInNames();
        assertThat(names).as("names in the 'look in' column").hasSizeGreaterThan(20);
        List<String> missing = names.stream().filter(name -> !exists(name)).toList();
        assertThat(missing)
                .as("docs/ARCHITECTURE.md names these places, which do not exist")
                .isEmpty();
    }

    @Test
    void aNameThatDoesNotExistIsCaught() {
        assertThat(exists("settlement/…/domain/SettlementPlan")).isTrue();
        assertThat(exists("settlement/…/domain/NoSuchPlan")).isFalse();
        assertThat(exists("ledger-port/…/domain/invariants"))
                .as("a folder that moved away")
                .isFalse();
        assertThat(exists("nowhere/Settlement")).isFalse();
    }

    /** The backquoted names in the second column of the table under "## Where to change what". */
    static List<String> lookInNames() {
        List<String> lines = read(ROOT.resolve("docs/ARCHITECTURE.md"));
        int start = lines.indexOf("## Where to change what");
        assertThat(start).as("the section '## Where to change what'").isNotNegative();
        List<String> names = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            String[] cells = line.split("\\|");
            if (line.startsWith("|")
                    && cells.length >= 3
                    && !cells[1].isBlank()
                    && !cells[2].contains("---")
                    && !cells[2].trim().equals("look in")) {
                Matcher m = CODE.matcher(cells[2]);
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    static boolean exists(String name) {
        String trimmed = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        int ellipsis = trimmed.indexOf("/…/");
        if (ellipsis >= 0) {
            Path module = ROOT.resolve(trimmed.substring(0, ellipsis));
            return Files.isDirectory(module) && endsWith(module, trimmed.substring(ellipsis + 3));
        }
        if (Files.exists(ROOT.resolve(trimmed))) {
            return true;
        }
        return endsWith(ROOT, trimmed);
    }

    /** A file or folder under {@code dir} whose path ends with {@code tail}, with or without an extension. */
    static boolean endsWith(Path dir, String tail) {
        String prefix = dir.equals(ROOT) ? "" : ROOT.relativize(dir) + "/";
        Pattern withExtension = Pattern.compile("(.*/)?" + Pattern.quote(tail) + "\\.[A-Za-z]+");
        return PATHS.stream()
                .filter(p -> p.startsWith(prefix))
                .anyMatch(p -> p.equals(tail)
                        || p.endsWith("/" + tail)
                        || withExtension.matcher(p).matches());
    }

    /** Every file and folder of the repository, relative to its root, without build output and run data. */
    static List<String> paths() {
        List<String> paths = new ArrayList<>();
        try {
            Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    String name = dir.getFileName().toString();
                    if (!dir.equals(ROOT) && (SKIPPED.contains(name) || name.startsWith("."))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    paths.add(ROOT.relativize(dir).toString());
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    paths.add(ROOT.relativize(file).toString());
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return paths;
    }

    static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/ARCHITECTURE.md"))
                    && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no repository root above " + Path.of("").toAbsolutePath());
    }
}
