package io.pagora.settlement.application;

import io.pagora.ledger.domain.Check;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.NewTransfer;
import io.pagora.ledger.domain.TransferResult;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Settles payments in batches through the {@link Ledger} port: one ledger request per up to
 * {@link Ledger#BATCH_SIZE_MAX} transfers, never one request per payment. A payment's chain is never
 * split across two requests, so it commits or fails as a whole.
 *
 * <p>Every method is idempotent: calling it again with the same payments (after a crash, a timeout,
 * a redelivery) reproduces the same transfer ids and reports the same outcome.
 */
public final class Settlement {

    private final Ledger ledger;
    private final int pendingTimeoutSeconds;

    public Settlement(Ledger ledger, int pendingTimeoutSeconds) {
        Check.that(pendingTimeoutSeconds > 0, "pending timeout must be positive: %d", pendingTimeoutSeconds);
        this.ledger = ledger;
        this.pendingTimeoutSeconds = pendingTimeoutSeconds;
    }

    /** Phase 1: reserve every payment's chain (all legs pending). One outcome per payment, in order. */
    public List<ReservationOutcome> reserve(List<Payment> payments) {
        return execute(payments, plan -> plan.pendingChain(pendingTimeoutSeconds), ReservationOutcome::classify);
    }

    /** Phase 2, accepted: post every payment's chain. */
    public List<ResolutionOutcome> post(List<Payment> payments) {
        return execute(payments, SettlementPlan::postChain, results -> ResolutionOutcome.classify(results, true));
    }

    /** Phase 2, refused: void every payment's chain. */
    public List<ResolutionOutcome> voidAll(List<Payment> payments) {
        return execute(payments, SettlementPlan::voidChain, results -> ResolutionOutcome.classify(results, false));
    }

    public int pendingTimeoutSeconds() {
        return pendingTimeoutSeconds;
    }

    private <T> List<T> execute(
            List<Payment> payments,
            Function<SettlementPlan, List<NewTransfer>> chainOf,
            Function<List<TransferResult>, T> classify) {
        List<T> outcomes = new ArrayList<>(payments.size());
        List<NewTransfer> request = new ArrayList<>(Math.min(Ledger.BATCH_SIZE_MAX, payments.size() * 3));
        List<Integer> chainSizes = new ArrayList<>();
        for (Payment payment : payments) {
            List<NewTransfer> chain = chainOf.apply(SettlementPlan.of(payment));
            if (request.size() + chain.size() > Ledger.BATCH_SIZE_MAX) {
                send(request, chainSizes, classify, outcomes);
            }
            request.addAll(chain);
            chainSizes.add(chain.size());
        }
        send(request, chainSizes, classify, outcomes);
        Check.that(outcomes.size() == payments.size(), "one outcome per payment");
        return outcomes;
    }

    private <T> void send(
            List<NewTransfer> request, List<Integer> chainSizes,
            Function<List<TransferResult>, T> classify, List<T> outcomes) {
        if (request.isEmpty()) {
            return;
        }
        List<TransferResult> results = ledger.createTransfers(request);
        Check.that(results.size() == request.size(), "one ledger result per transfer");
        int offset = 0;
        for (int size : chainSizes) {
            outcomes.add(classify.apply(results.subList(offset, offset + size)));
            offset += size;
        }
        request.clear();
        chainSizes.clear();
    }
}
