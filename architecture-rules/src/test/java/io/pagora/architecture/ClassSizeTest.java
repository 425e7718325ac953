package io.pagora.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A main class over {@value #LINES_MAX} lines says why at its top ("Over 400 lines on purpose: …"): a long class is
 * a choice written down, not accretion. Formatted lines count, as the formatter leaves them.
 */
class ClassSizeTest {

    static final int LINES_MAX = 400;
    static final String REASON = "Over 400 lines";

    @Test
    void everyLongMainClassSaysWhyAtItsTop() {
        List<String> unexplained = new ArrayList<>();
        int files = 0;
        for (String module : ModuleMapTest.modulesWithMainCode()) {
            try (Stream<Path> sources = Files.walk(ModuleMapTest.mainJava(module))) {
                for (Path source :
                        sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    List<String> lines = ArchitectureMapTest.read(source);
                    if (lines.size() > LINES_MAX && !top(lines).contains(REASON)) {
                        unexplained.add(ModuleMapTest.ROOT.relativize(source) + " (" + lines.size() + " lines)");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(files).as("main source files read").isGreaterThan(300);
        assertThat(unexplained)
                .as("main classes over %d lines without a reason at their top", LINES_MAX)
                .isEmpty();
    }

    @Test
    void theReasonCountsOnlyAtTheTop() {
        List<String> lines = new ArrayList<>(List.of("package a;", "/** A class. */", "final class A {"));
        lines.add("    // " + REASON + " further down does not count");
        assertThat(top(lines)).doesNotContain(REASON);
    }

    /** The lines before the first type declaration: the package, imports and the class comment. */
    static String top(List<String> lines) {
        StringBuilder top = new StringBuilder();
        for (String line : lines) {
            if (line.matches("^(public |final |abstract |sealed |non-sealed )*(class|record|interface|enum) .*")) {
                break;
            }
            top.append(line).append('\n');
        }
        return top.toString();
    }
}
