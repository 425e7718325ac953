package io.pagora.clearing.application.expiry;

import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.Report;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.VoidCause;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expiring parked whole requests, on in-memory fakes: what is left open is voided as unanswered, what was never
 * reserved is reserved and voided at once, and the ledger's earlier word wins; with participants the resolved are
 * dropped first. The last word publishes what the ledger holds, writing nothing.
 */
class ExpiringUnansweredTest {

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final ExpiringUnanswered withTheBank =
            new ExpiringUnanswered(fakes.settlement, fakes.publisher, fakes.outcomes, false);
    private final ExpiringUnanswered withParticipants =
            new ExpiringUnanswered(fakes.settlement, fakes.publisher, fakes.outcomes, true);

    @Test
    void anOpenChainAndOneNeverReservedBothExpire() {
        PaymentRequested reserved = reserved(fakes.payment());
        PaymentRequested neverReserved = fakes.payment();

        Report report = withTheBank.expire(List.of(request(reserved), request(neverReserved)));

        assertThat(report.expired()).isEqualTo(2);
        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(
                        tuple(reserved.paymentId(), "EXPIRED", reserved.endToEndId()),
                        tuple(neverReserved.paymentId(), "EXPIRED", neverReserved.endToEndId()));
        assertThat(Books.check(fakes.world, List.of(reserved, neverReserved), fakes.published))
                .containsOnly(
                        Map.entry(reserved.paymentId(), "EXPIRED"), Map.entry(neverReserved.paymentId(), "EXPIRED"));
    }

    @Test
    void aChainPostedEarlierIsReportedSettledWithTheBankAndSkippedWithParticipants() {
        PaymentRequested posted = reserved(fakes.payment());
        fakes.settlement.post(List.of(payment(posted)));

        Report withParticipantsReport = withParticipants.expire(List.of(request(posted)));
        Report withTheBankReport = withTheBank.expire(List.of(request(posted)));

        assertThat(withParticipantsReport.payments())
                .as("resolved: dropped before any write")
                .isZero();
        assertThat(withTheBankReport.settled())
                .as("the ledger's earlier word wins")
                .isEqualTo(1);
        assertThat(fakes.published).extracting(PaymentOutcome::status).containsExactly("SETTLED");
    }

    @Test
    void aChainTheBankRefusedEarlierStaysRejected() {
        PaymentRequested refused = reserved(fakes.payment());
        fakes.settlement.voidAll(List.of(payment(refused)), VoidCause.RECEIVING_BANK_REFUSED);

        withTheBank.expire(List.of(request(refused)));

        assertThat(fakes.published).extracting(PaymentOutcome::status).containsExactly("REJECTED");
        assertThat(fakes.published.getFirst().toString()).contains("answered to an earlier attempt");
    }

    @Test
    void theLastWordPublishesWhatTheLedgerHoldsAndWritesNothing() {
        PaymentRequested posted = reserved(fakes.payment());
        fakes.settlement.post(List.of(payment(posted)));
        PaymentRequested open = reserved(fakes.payment());
        PaymentRequested absent = fakes.payment();

        Report report = withTheBank.publishWhatTheLedgerHolds(List.of(request(posted), request(open), request(absent)));

        assertThat(List.of(report.settled(), report.expired())).containsExactly(1, 2);
        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status)
                .containsExactly(
                        tuple(posted.paymentId(), "SETTLED"),
                        tuple(open.paymentId(), "EXPIRED"),
                        tuple(absent.paymentId(), "EXPIRED"));
        assertThat(fakes.settlement.resolved(List.of(payment(open).id())))
                .as("the open chain is left to lapse, not voided")
                .containsExactly(false);
    }

    private PaymentRequested reserved(PaymentRequested payment) {
        fakes.settlement.reserve(List.of(payment(payment)));
        return payment;
    }

    private static Payment payment(PaymentRequested payment) {
        return request(payment).payment();
    }
}
