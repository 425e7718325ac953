package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * A client's idempotency key: 1 to {@value #LENGTH_MAX} visible ASCII characters (0x21–0x7E), compared
 * exactly. One key names one payment for as long as it is kept, across restarts and API instances.
 *
 * <p>An account opening's key ({@code POST /accounts}) is claimed there too, under {@link #ofAccountOpening}: a
 * prefix with a space and the SHA-256 of the client's key (the stored key stays within the column's 128
 * characters), so it never names a payment, and a payment's key never names an account.
 */
public record IdempotencyKey(String value) {

    public static final int LENGTH_MAX = 128;
    private static final String ACCOUNT_OPENING_PREFIX = "account-opening ";
    private static final int SHA256_HEX_CHARS = 64;

    public IdempotencyKey {
        if (!isValid(value) && !isAccountOpeningKey(value)) {
            throw new IllegalArgumentException("not a valid idempotency key");
        }
    }

    /** The key under which a client's account opening ({@code POST /accounts} with this key) is claimed. */
    public static IdempotencyKey ofAccountOpening(IdempotencyKey key) {
        Check.that(isValid(key.value()), "a client's own key: %s", key.value());
        return new IdempotencyKey(ACCOUNT_OPENING_PREFIX
                + HexFormat.of().formatHex(PaymentRequest.sha256(key.value().getBytes(StandardCharsets.US_ASCII))));
    }

    private static boolean isAccountOpeningKey(String value) {
        return value != null
                && value.startsWith(ACCOUNT_OPENING_PREFIX)
                && value.substring(ACCOUNT_OPENING_PREFIX.length()).matches("[0-9a-f]{" + SHA256_HEX_CHARS + "}");
    }

    public static boolean isValid(String value) {
        if (value == null || value.isEmpty() || value.length() > LENGTH_MAX) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** The key, or the problem with it; {@code where} names the header or field for the detail. */
    public static Result parse(String value, String where) {
        if (value == null) {
            return new Result(
                    null,
                    Refusal.ofField(
                            RefusalReason.MISSING_IDEMPOTENCY_KEY,
                            where,
                            where + " is required: 1 to " + LENGTH_MAX
                                    + " visible ASCII characters naming this request"));
        }
        if (!isValid(value)) {
            return new Result(
                    null,
                    Refusal.ofField(
                            RefusalReason.INVALID_IDEMPOTENCY_KEY,
                            where,
                            where + " must be 1 to " + LENGTH_MAX + " visible ASCII characters (0x21-0x7E), got "
                                    + value.length() + " characters"));
        }
        return new Result(new IdempotencyKey(value), null);
    }

    /** Exactly one of {@code key} and {@code problem} is set. */
    public record Result(IdempotencyKey key, Refusal problem) {}

    @Override
    public String toString() {
        return value;
    }
}
