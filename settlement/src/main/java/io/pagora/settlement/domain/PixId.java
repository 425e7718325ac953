package io.pagora.settlement.domain;

import io.pagora.kernel.Check;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A PIX message id in the central bank's (BCB) format, 32 characters:
 *
 * <pre>
 *   K IIIIIIII yyyyMMddHHmm SSSSSSSSSSS
 *   K  the kind: E an end-to-end id (a payment), D a return id (a devolução)
 *   I  the ISPB of the bank that made the id: the payer's bank (E), the returning bank (D)
 *   y… the UTC minute it was made
 *   S  11 ASCII letters or digits, unique for that bank within that minute
 * </pre>
 *
 * The id tells its bank and its minute without a lookup: payment-api checks that a bank names only its own
 * ids and only recent ones (older ids could no longer be checked for reuse).
 */
public record PixId(String value) {

    public static final int LENGTH = 32;
    public static final int SUFFIX_CHARS = 11;
    private static final int ISPB_START = 1;
    private static final int TIME_START = 9;
    private static final int SUFFIX_START = 21;
    private static final String ALPHANUMERICS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    /** What the first character says the id names. */
    public enum Kind {
        END_TO_END('E'),
        RETURN('D');

        public final char prefix;

        Kind(char prefix) {
            this.prefix = prefix;
        }
    }

    public PixId {
        Check.that(problem(value).isEmpty(), "not a PIX id: %s", value);
    }

    /** Why {@code text} is not a PIX id, or empty if it is one (of either kind). */
    public static Optional<String> problem(String text) {
        if (text == null || text.length() != LENGTH) {
            return Optional.of("must be " + LENGTH + " characters (K + ISPB + yyyyMMddHHmm + " + SUFFIX_CHARS
                    + " letters or digits), got " + (text == null ? "none" : text.length()));
        }
        char kind = text.charAt(0);
        if (kind != Kind.END_TO_END.prefix && kind != Kind.RETURN.prefix) {
            return Optional.of(
                    "must start with E (an end-to-end id) or D (a return id), got '" + printable(kind) + "'");
        }
        for (int i = ISPB_START; i < SUFFIX_START; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return Optional.of("characters 2 to 21 (the ISPB, then yyyyMMddHHmm) must be digits");
            }
        }
        for (int i = SUFFIX_START; i < LENGTH; i++) {
            if (ALPHANUMERICS.indexOf(text.charAt(i)) < 0) {
                return Optional.of("the last " + SUFFIX_CHARS + " characters must be ASCII letters or digits");
            }
        }
        if (minuteOf(text).isEmpty()) {
            return Optional.of("characters 10 to 21 must be a valid UTC date and time, yyyyMMddHHmm, got "
                    + text.substring(TIME_START, SUFFIX_START));
        }
        return Optional.empty();
    }

    /** Why {@code text} is not a PIX id of {@code kind}, or empty. */
    public static Optional<String> problem(String text, Kind kind) {
        Optional<String> problem = problem(text);
        if (problem.isPresent() || text.charAt(0) == kind.prefix) {
            return problem;
        }
        return Optional.of("must start with " + kind.prefix + ", got '" + text.charAt(0) + "'");
    }

    /**
     * The id a bank that gave none gets: made by the switch from the payment's own id, so a replay of the request
     * (same payment id, same acceptance time) gets the same one, and two payments never share one (the suffix is
     * about 65 bits of a hash of the payment id: two payments of one bank and one minute clash with odds near 2^-65).
     */
    public static PixId generated(Kind kind, BankId bank, Instant at, PaymentId seed) {
        byte[] digest = sha256((kind.prefix + ":" + seed).getBytes(StandardCharsets.US_ASCII));
        StringBuilder suffix = new StringBuilder(SUFFIX_CHARS);
        for (int i = 0; i < SUFFIX_CHARS; i++) {
            suffix.append(ALPHANUMERICS.charAt((digest[i] & 0xFF) % ALPHANUMERICS.length()));
        }
        return of(kind, bank, at, suffix.toString());
    }

    /** The id of {@code kind} that {@code bank} makes at {@code at} (its UTC minute) with {@code suffix}. */
    public static PixId of(Kind kind, BankId bank, Instant at, String suffix) {
        StringBuilder text = new StringBuilder(LENGTH).append(kind.prefix).append(bank);
        LocalDateTime minute = LocalDateTime.ofInstant(at, ZoneOffset.UTC);
        appendDigits(text, minute.getYear(), 4);
        appendDigits(text, minute.getMonthValue(), 2);
        appendDigits(text, minute.getDayOfMonth(), 2);
        appendDigits(text, minute.getHour(), 2);
        appendDigits(text, minute.getMinute(), 2);
        return new PixId(text.append(suffix).toString());
    }

    public Kind kind() {
        return value.charAt(0) == Kind.END_TO_END.prefix ? Kind.END_TO_END : Kind.RETURN;
    }

    public BankId bank() {
        return new BankId(Integer.parseInt(value.substring(ISPB_START, TIME_START)));
    }

    /** The minute the id names, as an instant (UTC). */
    public Instant minute() {
        return minuteOf(value).orElseThrow();
    }

    /**
     * Why this id may not be used now, or empty: it must name a minute no older than {@code oldestAllowed} (the
     * switch keeps ids for reuse checks that long) and no later than {@code latestAllowed} (a clock ahead).
     */
    public Optional<String> timeProblem(Instant oldestAllowed, Instant latestAllowed) {
        Instant minute = minute();
        if (minute.isBefore(oldestAllowed.truncatedTo(ChronoUnit.MINUTES))) {
            return Optional.of(
                    "names " + minute + ", older than " + oldestAllowed + ": ids are checked for reuse only that long");
        }
        if (minute.isAfter(latestAllowed)) {
            return Optional.of("names " + minute + ", in the future (after " + latestAllowed + ")");
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return value;
    }

    private static Optional<Instant> minuteOf(String text) {
        try {
            LocalDateTime time = LocalDateTime.of(
                    number(text, 9, 13),
                    number(text, 13, 15),
                    number(text, 15, 17),
                    number(text, 17, 19),
                    number(text, 19, 21));
            return Optional.of(time.toInstant(ZoneOffset.UTC));
        } catch (DateTimeException invalid) {
            return Optional.empty();
        }
    }

    private static int number(String text, int from, int to) {
        return Integer.parseInt(text, from, to, 10);
    }

    private static void appendDigits(StringBuilder text, int value, int width) {
        String digits = Integer.toString(value);
        Check.that(digits.length() <= width, "%d fits %d digits", value, width);
        text.append("0".repeat(width - digits.length())).append(digits);
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }

    private static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
