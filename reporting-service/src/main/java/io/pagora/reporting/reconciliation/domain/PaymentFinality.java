package io.pagora.reporting.reconciliation.domain;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Transfer;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.SettlementPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A payment's final state in the read model against its legs in the ledger. The leg ids are derived
 * ({@link LegId}), so the ledger is asked for exactly the post legs the payment can have:
 * SETTLED ⇔ every post leg exists, for the payment's amount, posting the payment's own pending leg;
 * REJECTED or EXPIRED ⇔ no post leg exists. A payment still ACCEPTED when it is judged (after its
 * pending timeout and a margin) is stuck.
 */
public final class PaymentFinality {

    private PaymentFinality() {}

    /** The post leg ids of a payment, in leg order. */
    public static List<Id128> postLegIds(Payment payment) {
        List<SettlementPlan.Leg> legs = SettlementPlan.of(payment).legs();
        List<Id128> ids = new ArrayList<>(legs.size());
        for (SettlementPlan.Leg leg : legs) {
            ids.add(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
        }
        return ids;
    }

    /** {@code posts}: the ledger's transfers by id, holding at least this payment's post legs that exist. */
    public static Verdict judge(Payment payment, PaymentStatus status, Map<Id128, Transfer> posts) {
        List<Id128> postIds = postLegIds(payment);
        int present = 0;
        for (int leg = 1; leg <= postIds.size(); leg++) {
            Transfer post = posts.get(postIds.get(leg - 1));
            if (post == null) {
                continue;
            }
            present++;
            Id128 pendingId = LegId.of(payment.id(), LegId.Phase.PENDING, leg);
            if (post.amount() != payment.amountCentavos() || !post.pendingId().equals(pendingId)) {
                return new Verdict.Disagrees(
                        MismatchKind.LEG_DIFFERS,
                        "leg " + leg + " posted " + post.amount()
                                + " of pending " + post.pendingId() + "; the read model's payment is "
                                + payment.amountCentavos()
                                + " of " + pendingId);
            }
        }
        return switch (status) {
            case SETTLED ->
                present == postIds.size()
                        ? Verdict.AGREES
                        : new Verdict.Disagrees(
                                MismatchKind.SETTLED_NOT_POSTED,
                                "SETTLED, but " + present + " of " + postIds.size() + " post legs are in the ledger");
            case REJECTED, EXPIRED ->
                present == 0
                        ? Verdict.AGREES
                        : new Verdict.Disagrees(
                                MismatchKind.UNSETTLED_BUT_POSTED,
                                status + ", but " + present + " of " + postIds.size() + " post legs are in the ledger");
            case ACCEPTED ->
                new Verdict.Disagrees(
                        MismatchKind.STUCK,
                        "still ACCEPTED after its pending timeout" + " and margin (" + present + " of " + postIds.size()
                                + " post legs in the ledger)");
        };
    }
}
