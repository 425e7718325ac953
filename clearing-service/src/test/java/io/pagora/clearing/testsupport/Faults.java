package io.pagora.clearing.testsupport;

import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Faults to inject into a running clearing service, and counters of what it asked: shared by the
 * decorators {@link FaultInjection} puts around the real ledger, receiving bank and outcome publisher.
 * One instance lives across the application contexts of a test (before and after a "restart").
 *
 * <p>Faults fire once each, in the order they were armed, at the first matching point.
 */
public final class Faults {

    /** Which kind of ledger request, told apart by the transfers' flags. */
    public enum Phase {
        RESERVE,
        POST,
        VOID,
        OTHER
    }

    /** Before the request reaches the ledger (nothing applied), or after the ledger applied it (answer lost). */
    public enum When {
        BEFORE,
        AFTER
    }

    /** The ledger unreachable (a transient failure, retried in place), or the whole process dying. */
    public enum How {
        UNAVAILABLE,
        CRASH
    }

    private record LedgerFault(Phase phase, When when, How how) {}

    private final ConcurrentLinkedQueue<LedgerFault> ledgerFaults = new ConcurrentLinkedQueue<>();
    private final AtomicInteger bankCrashes = new AtomicInteger();
    private final AtomicInteger publisherCrashes = new AtomicInteger();
    private volatile RuntimeException bankFailure;
    private volatile long poisonAmountCentavos;
    private final Set<PaymentId> poisonedPayments = ConcurrentHashMap.newKeySet();
    private final AtomicInteger crashes = new AtomicInteger();

    final AtomicInteger ledgerRequests = new AtomicInteger();
    final AtomicInteger[] requestsByPhase = {
        new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()
    };
    final AtomicInteger bankCalls = new AtomicInteger();
    final AtomicInteger injected = new AtomicInteger();

    public Faults ledger(Phase phase, When when, How how, int times) {
        for (int i = 0; i < times; i++) {
            ledgerFaults.add(new LedgerFault(phase, when, how));
        }
        return this;
    }

    /** The next receiving-bank call crashes the process before answering (after the reservation). */
    public Faults crashInBankCall() {
        bankCrashes.incrementAndGet();
        return this;
    }

    /** Every receiving-bank call throws {@code failure} (a bug, not a transient failure) until cleared. */
    public Faults failBankCalls(RuntimeException failure) {
        bankFailure = failure;
        return this;
    }

    /**
     * Every receiving-bank call that includes a payment of exactly {@code amountCentavos} throws (a bug
     * that one payment triggers, not a transient failure); 0 clears it.
     */
    public Faults failBankCallsWithPaymentOf(long amountCentavos) {
        poisonAmountCentavos = amountCentavos;
        return this;
    }

    /**
     * Every ledger request (any phase) that includes a transfer of one of {@code payments} throws (a bug
     * those payments alone trigger, not a transient failure), until the test ends. Nothing reaches the ledger.
     */
    public Faults failLedgerRequestsFor(List<PaymentId> payments) {
        poisonedPayments.addAll(payments);
        return this;
    }

    public Faults stopFailingBankCalls() {
        bankFailure = null;
        return this;
    }

    /** The next outcome publication crashes the process before anything is published (after the ledger work). */
    public Faults crashBeforePublishing() {
        publisherCrashes.incrementAndGet();
        return this;
    }

    /** Waits until {@code count} simulated crashes happened in total. */
    public boolean awaitCrashes(int count, long timeoutSeconds) throws InterruptedException {
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(timeoutSeconds))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> crashes.get() >= count);
            return true;
        } catch (ConditionTimeoutException tooFew) {
            return false;
        }
    }

    public int ledgerRequests() {
        return ledgerRequests.get();
    }

    public int ledgerRequests(Phase phase) {
        return requestsByPhase[phase.ordinal()].get();
    }

    public int bankCalls() {
        return bankCalls.get();
    }

    /** How many faults fired so far. */
    public int injected() {
        return injected.get();
    }

    public boolean allFired() {
        return ledgerFaults.isEmpty() && bankCrashes.get() == 0 && publisherCrashes.get() == 0;
    }

    static Phase phaseOf(List<NewTransfer> transfers) {
        if (transfers.isEmpty()) {
            return Phase.OTHER;
        }
        int flags = transfers.getFirst().flags();
        if ((flags & TransferFlags.PENDING) != 0) {
            return Phase.RESERVE;
        }
        if ((flags & TransferFlags.POST_PENDING_TRANSFER) != 0) {
            return Phase.POST;
        }
        if ((flags & TransferFlags.VOID_PENDING_TRANSFER) != 0) {
            return Phase.VOID;
        }
        return Phase.OTHER;
    }

    void ledgerPoint(Phase phase, When when) {
        for (LedgerFault fault : ledgerFaults) {
            if (fault.phase() == phase && fault.when() == when) {
                if (ledgerFaults.remove(fault)) {
                    fire(fault.how(), "ledger " + phase + " " + when.name().toLowerCase() + " applying");
                }
                return;
            }
        }
    }

    void ledgerPoison(List<NewTransfer> transfers) {
        if (poisonedPayments.isEmpty()) {
            return;
        }
        for (NewTransfer transfer : transfers) {
            PaymentId payment = LegId.paymentOf(transfer.id());
            if (poisonedPayments.contains(payment)) {
                injected.incrementAndGet();
                throw new IllegalStateException("simulated bug on payment " + payment);
            }
        }
    }

    void bankPoint(List<Payment> payments) {
        if (bankCrashes.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            fire(How.CRASH, "in the receiving bank call");
        }
        RuntimeException failure = bankFailure;
        if (failure != null) {
            injected.incrementAndGet();
            throw failure;
        }
        long poisonAmount = poisonAmountCentavos;
        if (poisonAmount > 0 && payments.stream().anyMatch(payment -> payment.amountCentavos() == poisonAmount)) {
            injected.incrementAndGet();
            throw new IllegalStateException("simulated bug on a payment of " + poisonAmount + " centavos");
        }
    }

    void publisherPoint() {
        if (publisherCrashes.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            fire(How.CRASH, "before publishing outcomes");
        }
    }

    private void fire(How how, String where) {
        injected.incrementAndGet();
        if (how == How.CRASH) {
            crashes.incrementAndGet();
            throw new SimulatedCrash(where);
        }
        throw new LedgerUnavailableException("injected: ledger unreachable " + where);
    }
}
