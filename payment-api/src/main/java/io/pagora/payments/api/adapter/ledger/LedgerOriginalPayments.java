package io.pagora.payments.api.adapter.ledger;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.payments.api.application.returns.OriginalPayments;
import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.SettlementPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads payments back from the ledger for returns, in two requests per {@link #IDS_PER_LOOKUP} ids: one lookup of
 * each chain's pending legs and first post leg (parties, amount, what it returns, and whether and when it settled),
 * one of the returnable accounts (how much is left), of the payments the caller may see only. The ledger is the only
 * place that knows all of it.
 */
public final class LedgerOriginalPayments implements OriginalPayments {

    /** Transfers looked up per payment: pending legs 1 to 4 and the first post leg. */
    private static final int TRANSFERS_PER_PAYMENT = LegId.LEGS_MAX + 1;

    static final int IDS_PER_LOOKUP = Ledger.BATCH_SIZE_MAX / TRANSFERS_PER_PAYMENT;

    private final Ledger ledger;

    public LedgerOriginalPayments(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public Map<PaymentId, OriginalPayment> find(Collection<PaymentId> ids, Predicate<Payment> visible) {
        List<PaymentId> all = List.copyOf(ids);
        Map<PaymentId, OriginalPayment> found = new HashMap<>();
        for (int from = 0; from < all.size(); from += IDS_PER_LOOKUP) {
            found.putAll(findSlice(all.subList(from, Math.min(all.size(), from + IDS_PER_LOOKUP)), visible));
        }
        return found;
    }

    private Map<PaymentId, OriginalPayment> findSlice(List<PaymentId> ids, Predicate<Payment> visible) {
        List<Id128> transferIds = new ArrayList<>(ids.size() * TRANSFERS_PER_PAYMENT);
        for (PaymentId id : ids) {
            for (int leg = 1; leg <= LegId.LEGS_MAX; leg++) {
                transferIds.add(LegId.of(id, LegId.Phase.PENDING, leg));
            }
            transferIds.add(LegId.of(id, LegId.Phase.POST, 1));
        }
        Map<Id128, Transfer> transfers = new HashMap<>();
        ledger.lookupTransfers(transferIds).forEach(transfer -> transfers.put(transfer.id(), transfer));
        Map<PaymentId, Payment> payments = new HashMap<>();
        for (PaymentId id : ids) {
            SettlementPlan.reservedPayment(id, transfers)
                    .filter(visible)
                    .ifPresent(payment -> payments.put(id, payment));
        }
        Map<Id128, Account> returnables = new HashMap<>();
        if (!payments.isEmpty()) {
            List<Id128> accountIds =
                    payments.keySet().stream().map(ChartOfAccounts::returnable).toList();
            ledger.lookupAccounts(accountIds).forEach(account -> returnables.put(account.id(), account));
        }
        Map<PaymentId, OriginalPayment> found = new HashMap<>();
        payments.forEach((id, payment) -> found.put(
                id,
                new OriginalPayment(
                        payment,
                        settledAt(transfers.get(LegId.of(id, LegId.Phase.POST, 1))),
                        returnable(payment, returnables.get(ChartOfAccounts.returnable(id))))));
        return found;
    }

    /** The ledger's timestamp of the first post leg (nanoseconds since the epoch), or null: not posted. */
    private static Instant settledAt(Transfer post) {
        return post == null ? null : Instant.ofEpochSecond(0, post.timestamp());
    }

    /**
     * Credits (the opening) less every debit, posted or pending: what no return holds or took. An account not yet
     * opened (clearing creates it, then opens it in a second request; a crash or an outage in between) holds nothing
     * and no return can have debited it (its limit): the whole amount is left, and the return reserved next opens it
     * with the one opening transfer, which the ledger applies once.
     */
    private static long returnable(Payment payment, Account account) {
        if (account == null || account.creditsPosted() == 0) {
            Check.that(
                    account == null || account.debitsPosted() == 0 && account.debitsPending() == 0,
                    "returnable account of %s: debited before its opening",
                    payment.id());
            return payment.amountCentavos();
        }
        long left = account.creditsPosted() - account.debitsPosted() - account.debitsPending();
        Check.that(
                account.creditsPosted() == payment.amountCentavos() && left >= 0,
                "returnable account of %s: credits %d for an amount of %d, %d left",
                payment.id(),
                account.creditsPosted(),
                payment.amountCentavos(),
                left);
        return left;
    }
}
