package io.pagora.local.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * k6/lib/config.js reads every scenario's defaults at import: a scenario missing from its defaults' tables fails
 * every run of it before the first request (the scan scenario did, unrun by anything in CI). Read as text, as no
 * JavaScript engine is among the build's dependencies.
 */
class K6ScenariosTest {

    private static final Path CONFIG =
            Path.of("..").toAbsolutePath().normalize().resolve("k6/lib/config.js");

    @Test
    void every_scenario_has_a_default_rate_and_duration() throws IOException {
        String config = Files.readString(CONFIG);
        List<String> scenarios = quoted(line(config, "export const SCENARIOS = ["));

        assertThat(scenarios).contains("load", "scan").hasSizeGreaterThan(5);
        assertThat(keys(line(config, "const DEFAULT_RATE = {")))
                .as("DEFAULT_RATE")
                .containsExactlyInAnyOrderElementsOf(scenarios);
        assertThat(keys(line(config, "const DEFAULT_DURATION = {")))
                .as("DEFAULT_DURATION")
                .containsExactlyInAnyOrderElementsOf(scenarios);
    }

    private static String line(String text, String start) {
        return text.lines()
                .filter(line -> line.startsWith(start))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line starting " + start + " in " + CONFIG));
    }

    private static List<String> quoted(String line) {
        List<String> found = new ArrayList<>();
        Matcher matcher = Pattern.compile("'([^']+)'").matcher(line);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    /** An object literal's keys, bare ({@code load:}) or quoted ({@code 'hot-account':}). */
    private static List<String> keys(String line) {
        List<String> found = new ArrayList<>();
        Matcher matcher = Pattern.compile("(?:'([^']+)'|([a-z][a-zA-Z-]*)):").matcher(line);
        while (matcher.find()) {
            found.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
        }
        return found;
    }
}
