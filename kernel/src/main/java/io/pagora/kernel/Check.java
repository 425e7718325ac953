package io.pagora.kernel;

/**
 * Always-on assertions (TigerBeetle style): they crash on programmer error and are never disabled,
 * unlike Java's {@code assert}. Use them for invariants, not for validating user input.
 */
public final class Check {

    private Check() {}

    public static void that(boolean condition, String invariant) {
        if (!condition) {
            throw new InvariantViolation(invariant);
        }
    }

    public static void that(boolean condition, String format, Object... arguments) {
        if (!condition) {
            throw new InvariantViolation(String.format(format, arguments));
        }
    }

    /** A broken invariant: a bug or corrupted state. Never caught to continue; it must crash. */
    public static final class InvariantViolation extends IllegalStateException {
        public InvariantViolation(String message) {
            super(message);
        }
    }
}
