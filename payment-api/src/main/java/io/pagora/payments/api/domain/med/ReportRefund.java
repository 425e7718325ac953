package io.pagora.payments.api.domain.med;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An accepted report's refund, as its payer's bank asked for it (docs/med.md).
 *
 * @param centavos how much: at most what the holds held when it was asked for
 * @param requestedAt when: the refunds' acceptance time, in their legs, so a retry makes the same transfers
 * @param outcomes what the ledger answered for each hold's share, by trace position; empty while {@code REFUNDING}
 */
public record ReportRefund(long centavos, Instant requestedAt, Map<Integer, RefundOutcome> outcomes) {

    public ReportRefund {
        Check.that(centavos > 0, "a refund of %d", centavos);
        Check.that(requestedAt != null, "a refund asked for at some time");
        outcomes = Map.copyOf(outcomes);
    }

    /**
     * What each hold pays of {@code centavos}, by trace position: the holds in position order (the payee's account
     * first, then hop by hop), each all it holds until the amount is reached. Positions that pay nothing are absent.
     */
    public static Map<Integer, Long> shares(FundsTrace trace, long centavos) {
        Check.that(
                centavos > 0 && centavos <= trace.heldCentavos(),
                "a refund of %d of %d held",
                centavos,
                trace.heldCentavos());
        Map<Integer, Long> shares = new LinkedHashMap<>();
        long left = centavos;
        for (FundsTrace.Node node : trace.nodes()) {
            if (left == 0) {
                break;
            }
            long share = Math.min(left, node.heldCentavos());
            if (share > 0) {
                shares.put(node.position(), share);
                left -= share;
            }
        }
        Check.that(left == 0, "the holds pay the whole refund");
        return shares;
    }

    /** What the refunds reserved: the centavos of the shares the ledger took. */
    public long reservedCentavos(FundsTrace trace) {
        Map<Integer, Long> shares = shares(trace, centavos);
        return outcomes.entrySet().stream()
                .filter(outcome -> outcome.getValue() == RefundOutcome.RESERVED)
                .mapToLong(outcome -> shares.getOrDefault(outcome.getKey(), 0L))
                .sum();
    }
}
