package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import java.util.Map;
import java.util.Objects;

/**
 * Why a request (or one item of a batch) was refused: a business outcome, returned as a value.
 * {@code field} names the offending JSON field or header when there is one, else it is null.
 * {@code retryAfterSeconds}: for a refusal for now, when a retry can succeed, as the limit that refused it computed
 * (a token bucket: when enough tokens are back); 0 when the refusal does not know (a transient outage).
 * {@code numbers}: the problem's machine-readable members besides the standard ones (e.g. a return's
 * {@code returnableCentavos}), so a client need not parse {@code detail}; usually none.
 */
public record Refusal(
        RefusalReason type, String detail, String field, long retryAfterSeconds, Map<String, Long> numbers) {

    /** Members a refusal may carry; a few at most, each one documented with its problem type. */
    static final int NUMBERS_MAX = 4;

    public Refusal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(detail, "detail");
        Check.that(retryAfterSeconds >= 0, "retryAfterSeconds is not negative");
        numbers = Map.copyOf(numbers);
        Check.that(numbers.size() <= NUMBERS_MAX, "at most %d numbers in a problem: %s", NUMBERS_MAX, numbers);
    }

    public Refusal(RefusalReason type, String detail, String field, long retryAfterSeconds) {
        this(type, detail, field, retryAfterSeconds, Map.of());
    }

    public static Refusal of(RefusalReason type, String detail) {
        return new Refusal(type, detail, null, 0);
    }

    public static Refusal ofField(RefusalReason type, String field, String detail) {
        return new Refusal(type, detail, field, 0);
    }

    /** A refusal for now that knows when a retry can succeed: after {@code retryAfterSeconds} (at least 1). */
    public static Refusal retryAfter(RefusalReason type, long retryAfterSeconds, String detail) {
        Check.that(
                retryAfterSeconds >= 1, "a refusal that says when to retry says at least 1 s: %d", retryAfterSeconds);
        return new Refusal(type, detail, null, retryAfterSeconds);
    }

    /** The same problem, its field named within an enclosing document ({@code payments[3].payeeAccountId}). */
    public Refusal withField(String enclosingField) {
        return new Refusal(type, detail, enclosingField, retryAfterSeconds, numbers);
    }

    /** The same problem with one more machine-readable member, {@code name}: {@code value}. */
    public Refusal withNumber(String name, long value) {
        Check.that(!numbers.containsKey(name), "one %s per problem", name);
        Map<String, Long> more = new java.util.LinkedHashMap<>(numbers);
        more.put(name, value);
        return new Refusal(type, detail, field, retryAfterSeconds, more);
    }
}
