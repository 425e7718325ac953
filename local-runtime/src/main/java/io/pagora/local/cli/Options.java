package io.pagora.local.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name=value} command-line options. Unknown names are an error (a typo must not silently
 * fall back to a default), checked by {@link #rejectUnknown()} once every option was read.
 */
public final class Options {

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> read = new HashSet<>();

    public Options(String[] args) {
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("options are --name=value, not: " + arg);
            }
            int equals = arg.indexOf('=');
            values.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
    }

    public String string(String name, String fallback) {
        read.add(name);
        return values.getOrDefault(name, fallback);
    }

    public String required(String name) {
        read.add(name);
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("missing option --" + name + "=...");
        }
        return value;
    }

    public int integer(String name, int fallback) {
        return Integer.parseInt(string(name, Integer.toString(fallback)));
    }

    public long longValue(String name, long fallback) {
        return Long.parseLong(string(name, Long.toString(fallback)));
    }

    public Path path(String name) {
        return Path.of(required(name));
    }

    public void rejectUnknown() {
        Set<String> unknown = new HashSet<>(values.keySet());
        unknown.removeAll(read);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown options: " + unknown);
        }
    }
}
