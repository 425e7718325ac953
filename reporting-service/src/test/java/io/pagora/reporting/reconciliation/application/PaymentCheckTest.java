package io.pagora.reporting.reconciliation.application;

import static io.pagora.reporting.reconciliation.application.InMemoryBanks.SETTINGS;
import static io.pagora.reporting.reconciliation.application.InMemoryBanks.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.Payment;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The payment check on an in-memory ledger and read model: which payments it judges, when, and what it reports. */
class PaymentCheckTest {

    private static final Instant NOW = Instant.parse("2026-01-05T12:00:00Z");
    /** Visible long enough ago to be due (past final-within), not so long ago as to be overdue. */
    private static final Instant DUE = NOW.minus(SETTINGS.finalWithin()).minusSeconds(1);

    private final InMemoryBanks banks = new InMemoryBanks();
    private final InMemoryReadModel readModel = new InMemoryReadModel();
    private final List<Id128> customers = banks.openBank(new BankId(31), 2);
    private final PaymentCheck check = new PaymentCheck(
            readModel,
            new PaymentJudge(
                    new PacedLedger(banks.ledger, SETTINGS.ledgerRequestsPerSecondMax()), SETTINGS.legLookupIdsMax()),
            SETTINGS,
            NOW);

    @Test
    void aSettledPaymentTheLedgerPostedAgrees() {
        Payment payment = settled(500);
        readModel.add(7, row(payment, PaymentStatus.SETTLED), DUE);

        RoundReport report = round(NOW);

        assertThat(report.paymentsChecked()).isEqualTo(1);
        assertThat(report.paymentLegsChecked()).isEqualTo(1);
        assertThat(report.mismatchTotal()).isZero();
        assertThat(report.paymentsCaughtUp()).isTrue();
        assertThat(report.paymentsCheckedThrough()).isEqualTo(NOW.minus(SETTINGS.finalWithin()));
    }

    @Test
    void aPaymentJudgedOnceIsNotJudgedAgain() {
        readModel.add(7, row(settled(500), PaymentStatus.SETTLED), DUE);
        round(NOW);

        RoundReport next = round(NOW.plusSeconds(5));

        assertThat(next.paymentsChecked()).isZero();
        assertThat(next.paymentLegsChecked()).isZero();
    }

    @Test
    void aRejectedPaymentTheLedgerPostedIsReported() {
        Payment payment = settled(700);
        readModel.add(7, row(payment, PaymentStatus.REJECTED), DUE);

        RoundReport report = round(NOW);

        assertThat(report.mismatchCounts()).isEqualTo(Map.of(MismatchKind.UNSETTLED_BUT_POSTED, 1L));
        assertThat(report.mismatches().getFirst().subject())
                .isEqualTo("payment " + payment.id().value());
    }

    @Test
    void aSettledPaymentTheLedgerNeverPostedIsReported() {
        Payment payment = banks.payment(customers.get(0), customers.get(1), 800);
        readModel.add(7, row(payment, PaymentStatus.SETTLED), DUE);

        RoundReport report = round(NOW);

        assertThat(report.mismatchCounts()).isEqualTo(Map.of(MismatchKind.SETTLED_NOT_POSTED, 1L));
    }

    @Test
    void aPaymentNotDueYetIsLeftForALaterRound() {
        Instant visible = NOW.minusSeconds(10);
        readModel.add(7, row(settled(500), PaymentStatus.SETTLED), visible);

        RoundReport report = round(NOW);

        assertThat(report.paymentsChecked()).isZero();
        assertThat(report.paymentsCaughtUp()).as("nothing due is left").isTrue();
        assertThat(report.paymentsCheckedThrough()).isEqualTo(NOW.minus(SETTINGS.finalWithin()));
        assertThat(round(visible.plus(SETTINGS.finalWithin())).paymentsChecked())
                .isEqualTo(1);
    }

    @Test
    void aPaymentNotFinalHoldsTheCursorUntilItIsStuck() {
        Payment accepted = banks.payment(customers.get(0), customers.get(1), 900);
        readModel.add(7, row(accepted, PaymentStatus.ACCEPTED), DUE);
        readModel.add(8, row(settled(100), PaymentStatus.SETTLED), DUE);

        RoundReport late = round(NOW);

        assertThat(late.paymentsChecked()).as("the settled one waits behind it").isZero();
        assertThat(late.paymentsCaughtUp()).isFalse();
        assertThat(late.paymentsCheckedThrough()).as("the lag grows").isEqualTo(DUE);

        Instant overdue = DUE.plus(SETTINGS.finalWithin().multipliedBy(PaymentCheck.STUCK_AFTER_FINAL_WITHINS));
        RoundReport stuck = round(overdue.plusMillis(1));

        assertThat(stuck.paymentsChecked()).isEqualTo(2);
        assertThat(stuck.mismatchCounts()).isEqualTo(Map.of(MismatchKind.STUCK, 1L));
    }

    @Test
    void aTransactionWhoseRowsDisagreeWithItsDigestIsReported() {
        readModel.digestsAfter = 0;
        Payment planted = banks.payment(customers.get(0), customers.get(1), 300);
        readModel.add(9, row(planted, PaymentStatus.SETTLED), DUE);
        Payment projected = settled(400);
        readModel.add(10, row(projected, PaymentStatus.SETTLED), DUE);
        readModel.writeDigest(
                10,
                ProjectionDigest.NONE.plus(
                        projected.id().value(), projected.payer(), projected.payee(), projected.amountCentavos()));

        RoundReport report = round(NOW);

        assertThat(report.paymentsChecked()).isEqualTo(2);
        assertThat(report.mismatchCounts())
                .as("transaction 9 wrote no digest; its row was never posted")
                .isEqualTo(Map.of(MismatchKind.UNPROJECTED, 1L, MismatchKind.SETTLED_NOT_POSTED, 1L));
        assertThat(report.mismatches()).anySatisfy(m -> assertThat(m.subject()).isEqualTo("projection transaction 9"));
    }

    @Test
    void aFailingReadIsRecordedAndVouchesForNothingNew() {
        readModel.add(7, row(settled(500), PaymentStatus.SETTLED), DUE);
        readModel.failure = new IllegalStateException("the read model is down");

        RoundReport report = round(NOW);

        assertThat(report.failure()).isEqualTo("payments: java.lang.IllegalStateException: the read model is down");
        assertThat(report.paymentsCheckedThrough()).isEqualTo(NOW.minus(SETTINGS.startLookback()));
        assertThat(round(NOW).paymentsChecked())
                .as("judged once the read model is back")
                .isEqualTo(1);
    }

    private Payment settled(long amountCentavos) {
        Payment payment = banks.payment(customers.get(0), customers.get(1), amountCentavos);
        banks.settle(payment);
        return payment;
    }

    private RoundReport round(Instant now) {
        RoundReport.Builder report = new RoundReport.Builder(SETTINGS.detailsMax());
        check.run(now, report);
        return report.build();
    }
}
