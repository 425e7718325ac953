package io.pagora.clearing.application.participants;

import io.pagora.settlement.domain.PaymentId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The end-to-end ids of the payments this instance instructed: only a fallback, for an answer that does not carry
 * its payment's end-to-end id (payment-api does not fill it yet) or an instructed payment parked without one. An
 * outcome takes the id from the answer or the parked record first, which every instance reads alike. Bounded: the
 * oldest are forgotten first.
 */
public final class InstructedEndToEndIds {

    /** About 16 s of instructions at 12,000/s, ~30 MB at most. */
    static final int REMEMBERED_MAX = 200_000;

    private final Map<PaymentId, String> ids = Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PaymentId, String> eldest) {
            return size() > REMEMBERED_MAX;
        }
    });

    void remember(PaymentId payment, String endToEndId) {
        ids.put(payment, endToEndId);
    }

    /** {@code carried} when not null, else what this instance remembers (null if nothing). */
    public String of(PaymentId payment, String carried) {
        return carried != null ? carried : ids.get(payment);
    }
}
