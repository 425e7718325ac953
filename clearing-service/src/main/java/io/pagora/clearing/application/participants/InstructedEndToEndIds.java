package io.pagora.clearing.application.participants;

import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The end-to-end ids of the payments this instance instructed. The expiry path takes the id from the parked record
 * first, which every instance reads alike; an answer, which names the payment only, takes it from here first, then
 * from a well-formed id the answer carries (none does yet). Bounded: the oldest are forgotten first.
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

    /** {@code carried} (clearing's own parked record) when not null, else what this instance remembers, or null. */
    public String of(PaymentId payment, String carried) {
        return carried != null ? carried : ids.get(payment);
    }

    /**
     * For an answer: what this instance remembers first (it made the instruction), else the id the answer carries
     * if it is a PIX id (an answer's writer may pass on what a bank said), else null.
     */
    public String ofAnswer(PaymentId payment, String carried) {
        String remembered = ids.get(payment);
        if (remembered != null) {
            return remembered;
        }
        return carried != null && PixId.problem(carried).isEmpty() ? carried : null;
    }
}
