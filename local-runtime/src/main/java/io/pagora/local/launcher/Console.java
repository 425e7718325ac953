package io.pagora.local.launcher;

/**
 * What the launcher tells its user: every line starts with {@code [pagora]}, warnings and errors go to
 * standard error. A {@link Failure} ends the command with the one line that says why (the launcher's
 * {@code die}).
 */
public final class Console {

    private static final String RULE = "=".repeat(82);

    private Console() {}

    public static void say(String format, Object... arguments) {
        System.out.println("[pagora] " + format.formatted(arguments));
        System.out.flush();
    }

    public static void warn(String format, Object... arguments) {
        System.err.println("[pagora] WARNING: " + format.formatted(arguments));
        System.err.flush();
    }

    public static void banner(String text) {
        System.out.printf("%s%n  %s%n%s%n", RULE, text, RULE);
        System.out.flush();
    }

    /** Ends the command: the launcher prints {@code [pagora] ERROR: <message>} and exits 1. */
    public static Failure fail(String format, Object... arguments) {
        return new Failure(format.formatted(arguments));
    }

    public static final class Failure extends RuntimeException {
        public Failure(String message) {
            super(message);
        }
    }
}
