package io.pagora.local.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One command's command line: {@code --name=value} options, bare {@code --flag}s and, for the commands that take
 * them, plain arguments (the chaos scenarios). Each command reads it once into its own typed options record; unknown
 * names are refused by {@link #rejectUnknown()} once every option was read (a typo must not silently fall back to a
 * default), with the command's name and the options it knows. A repeated option: the last one counts.
 */
public final class Options {

    private final String command;
    /** Each option by name: its value, or null for a bare {@code --flag}. */
    private final Map<String, String> values = new LinkedHashMap<>();

    private final Map<String, String> typed = new LinkedHashMap<>();
    private final List<String> arguments = new ArrayList<>();
    private final Set<String> known = new LinkedHashSet<>();
    private boolean argumentsRead;

    public Options(String command, List<String> args) {
        this.command = command;
        for (String arg : args) {
            if (!arg.startsWith("--") || arg.equals("--") || arg.startsWith("--=")) {
                arguments.add(arg);
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg.substring(2) : arg.substring(2, equals);
            values.put(name, equals < 0 ? null : arg.substring(equals + 1));
            typed.put(name, arg);
        }
    }

    public Options(String command, String[] args) {
        this(command, List.of(args));
    }

    public String command() {
        return command;
    }

    public String string(String name, String fallback) {
        known.add("--" + name + "=");
        if (!values.containsKey(name)) {
            return fallback;
        }
        String value = values.get(name);
        if (value == null) {
            throw refused("--%s needs a value: --%s=...", name, name);
        }
        return value;
    }

    public String required(String name) {
        String value = string(name, null);
        if (value == null || value.isBlank()) {
            throw refused("missing option --%s=...", name);
        }
        return value;
    }

    public int integer(String name, int fallback) {
        Integer value = integerOrNull(name);
        return value == null ? fallback : value;
    }

    /** A whole number, or null when not given (a default another command holds). */
    public Integer integerOrNull(String name) {
        return parsed(name, Integer::valueOf, "a whole number");
    }

    public long requiredLong(String name) {
        required(name);
        return longValue(name, 0);
    }

    public long longValue(String name, long fallback) {
        Long value = parsed(name, Long::valueOf, "a whole number");
        return value == null ? fallback : value;
    }

    public double decimal(String name, double fallback) {
        Double value = decimalOrNull(name);
        return value == null ? fallback : value;
    }

    /** A number, or null when not given (a default another command holds). */
    public Double decimalOrNull(String name) {
        return parsed(name, Double::valueOf, "a number");
    }

    private <T> T parsed(String name, Function<String, T> parse, String kind) {
        String value = string(name, null);
        if (value == null) {
            return null;
        }
        try {
            return parse.apply(value.trim());
        } catch (NumberFormatException e) {
            throw refused("--%s is %s, not '%s'", name, kind, value);
        }
    }

    /** A required path option. */
    public Path path(String name) {
        return Path.of(required(name));
    }

    /** A path option that may be left out. */
    public Path path(String name, Path fallback) {
        String value = string(name, null);
        return value == null ? fallback : Path.of(value);
    }

    /** {@code --name}, or {@code --name=true|false} (what a tool is handed by the launcher); false when absent. */
    public boolean flag(String name) {
        known.add("--" + name);
        if (!values.containsKey(name)) {
            return false;
        }
        String value = values.get(name);
        if (value == null || value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw refused("--%s is a flag (--%s), not --%s=%s", name, name, name, value);
    }

    /** Whether the option was given at all (as a flag or with a value). */
    public boolean given(String name) {
        return values.containsKey(name);
    }

    /** The plain arguments (not {@code --...}), in order: a command that reads them accepts them. */
    public List<String> arguments() {
        argumentsRead = true;
        return List.copyOf(arguments);
    }

    /** Refuses every option no getter asked for, and plain arguments if the command takes none. */
    public void rejectUnknown() {
        if (known.isEmpty() && !typed.isEmpty()) {
            throw refused(
                    "%s takes no option, not: %s",
                    command, typed.values().iterator().next());
        }
        for (Map.Entry<String, String> option : values.entrySet()) {
            String name = option.getKey();
            if (!known.contains("--" + name) && !known.contains("--" + name + "=")) {
                throw refused("unknown %s option: %s (%s)", command, typed.get(name), knownText());
            }
        }
        if (!argumentsRead && !arguments.isEmpty()) {
            throw known.isEmpty()
                    ? refused("%s takes no option, not: %s", command, arguments.getFirst())
                    : refused("unknown %s option: %s (%s)", command, arguments.getFirst(), knownText());
        }
    }

    private String knownText() {
        return known.isEmpty()
                ? "it takes none"
                : "known: "
                        + String.join(
                                " ",
                                known.stream()
                                        .map(option -> option.endsWith("=") ? option + "..." : option)
                                        .toList());
    }

    private Refused refused(String format, Object... arguments) {
        return new Refused(format.formatted(arguments));
    }

    /** A command line the command cannot run: the message says what is wrong and what it knows. */
    public static final class Refused extends IllegalArgumentException {
        Refused(String message) {
            super(message);
        }
    }
}
