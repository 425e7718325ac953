package io.pagora.clearing.testsupport;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory fakes the use cases' unit tests share: the reference ledger on the wall clock with bank A's reserve
 * funded, settlement with a 60 s pending timeout, and the outcome and parking ports as lists the tests read.
 */
public final class UseCaseWorld {

    public static final int PENDING_TIMEOUT_SECONDS = 60;

    public final ReferenceLedger ledger = ReferenceLedger.onWallClock();
    public final PixWorld world = new PixWorld(ledger);
    public final Settlement settlement = new Settlement(ledger, PENDING_TIMEOUT_SECONDS);
    public final Outcomes outcomes = new Outcomes(Clock.systemUTC());
    public final List<PaymentOutcome> published = new ArrayList<>();
    public final OutcomePublisher publisher = (results, payerOnly) -> published.addAll(results);
    public final List<PaymentRequested> parkedRequests = new ArrayList<>();
    public final List<Instant> parkedDeadlines = new ArrayList<>();
    public final List<UnansweredPayments.Instructed> parkedInstructed = new ArrayList<>();
    public final UnansweredPayments unanswered = new UnansweredPayments() {
        @Override
        public void park(List<PaymentRequested> payments, Instant deadline) {
            parkedRequests.addAll(payments);
            parkedDeadlines.add(deadline);
        }

        @Override
        public void parkInstructed(List<Instructed> payments, Instant deadline) {
            parkedInstructed.addAll(payments);
            parkedDeadlines.add(deadline);
        }
    };
    private long customers;

    public UseCaseWorld() {
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
    }

    /** A payment of R$ 10.00 from a new customer of bank A, holding R$ 100.00, to a new customer of bank B. */
    public PaymentRequested payment() {
        return payment(100_00);
    }

    /** A payment of R$ 10.00 from a new customer of bank A holding {@code payerBalance} to one of bank B. */
    public PaymentRequested payment(long payerBalance) {
        long number = ++customers;
        Id128 payer =
                world.openCustomers(PixWorld.BANK_A, number, 1, payerBalance).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, number, 1, 0).getFirst();
        return world.payment(payer, payee, 10_00);
    }

    public static PaymentId id(PaymentRequested payment) {
        return PaymentId.parse(payment.paymentId());
    }

    public static ClearingRequest request(PaymentRequested event) {
        return new ClearingRequest(event, ClearingRequest.toPayment(event));
    }

    public static UnansweredPayments.Instructed parked(PaymentRequested payment) {
        return new UnansweredPayments.Instructed(id(payment), payment.endToEndId());
    }
}
