package io.pagora.reporting.reconciliation.application;

import static io.pagora.reporting.reconciliation.application.InMemoryBanks.SETTINGS;
import static io.pagora.reporting.reconciliation.application.InMemoryBanks.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The balance check on an in-memory ledger, read model and pipeline: every customer's and every bank's balance at
 * a cut against the read model's settled totals, a disagreement reported at its second sight, lag never a mismatch.
 */
class BalanceCheckTest {

    private static final Instant NOW = Instant.parse("2026-01-05T12:00:00Z");
    private static final BankId BANK_A = new BankId(31);
    private static final BankId BANK_B = new BankId(42);
    /** Two customers in each of two banks, and each bank's reserve and transit. */
    private static final int ACCOUNTS = 2 * 2 + 2 * 2;

    private final InMemoryBanks banks = new InMemoryBanks();
    private final InMemoryReadModel readModel = new InMemoryReadModel();
    private final StillPipeline pipeline = new StillPipeline();
    private final List<Id128> inA = banks.openBank(BANK_A, 2);
    private final List<Id128> inB = banks.openBank(BANK_B, 2);

    @Test
    void everyAccountAgreesWithTheReadModelsSettledPayments() {
        project(settled(inA.get(0), inB.get(0), 1_500), PaymentStatus.SETTLED);
        project(settled(inA.get(1), inA.get(0), 250), PaymentStatus.SETTLED);
        project(banks.payment(inB.get(1), inA.get(1), 999), PaymentStatus.REJECTED);

        RoundReport report = round(check(SETTINGS), NOW);

        assertThat(report.accountsChecked()).isEqualTo(ACCOUNTS);
        assertThat(report.accountsDeferred()).isZero();
        assertThat(report.mismatchTotal()).isZero();
    }

    @Test
    void aDisagreementIsReportedAtItsSecondSightAndOnlyOnce() {
        Payment missing = settled(inA.get(0), inB.get(0), 1_500);
        BalanceCheck check = check(SETTINGS);

        RoundReport first = round(check, NOW);
        RoundReport second = round(check, NOW.plusSeconds(1));
        RoundReport third = round(check, NOW.plusSeconds(2));

        assertThat(first.mismatchTotal())
                .as("one disagreeing cut makes a suspect")
                .isZero();
        assertThat(first.accountsDeferred())
                .as("the payer and its bank's reserve and transit")
                .isEqualTo(3);
        assertThat(second.mismatchCounts()).isEqualTo(Map.of(MismatchKind.BALANCE, 3L));
        assertThat(second.mismatches())
                .extracting(m -> m.subject())
                .containsExactlyInAnyOrder(
                        "customer " + missing.payer(),
                        "reserve " + ChartOfAccounts.reserve(BANK_A),
                        "transit " + ChartOfAccounts.transit(BANK_A));
        assertThat(second.accountsChecked()).isEqualTo(ACCOUNTS);
        assertThat(third.mismatchTotal())
                .as("reported once until the account agrees again")
                .isZero();
        assertThat(third.accountsChecked()).isEqualTo(ACCOUNTS);
    }

    @Test
    void aReportedCustomerPointsAtItsLatestSettledPayments() {
        Payment projected = banks.payment(inA.get(0), inA.get(1), 600);
        project(projected, PaymentStatus.SETTLED);
        BalanceCheck check = check(SETTINGS);
        round(check, NOW);

        RoundReport second = round(check, NOW.plusSeconds(1));

        assertThat(second.mismatchCounts())
                .as("the payer's balance, and the payment it points at, never posted")
                .isEqualTo(Map.of(MismatchKind.BALANCE, 1L, MismatchKind.SETTLED_NOT_POSTED, 1L));
        assertThat(second.paymentLegsChecked()).isEqualTo(1);
        assertThat(second.paymentsChecked())
                .as("judged, and counted, by the payment check")
                .isZero();
    }

    @Test
    void aReadModelBehindTheLedgerReadIsLagNeverAMismatch() {
        Payment payment = settled(inA.get(0), inB.get(0), 1_500);
        pipeline.caughtUp = false;
        BalanceCheck check = check(SETTINGS);

        RoundReport waiting = round(check, NOW);
        project(payment, PaymentStatus.SETTLED);
        pipeline.caughtUp = true;
        RoundReport judged = round(check, NOW.plusSeconds(1));

        assertThat(waiting.accountsDeferred()).isEqualTo(ACCOUNTS);
        assertThat(waiting.accountsChecked()).isZero();
        assertThat(judged.accountsChecked()).isEqualTo(ACCOUNTS);
        assertThat(judged.mismatchTotal()).isZero();
    }

    @Test
    void aWindowTooLargeToReadDefersTheCut() {
        pipeline.windowTooLarge = true;

        RoundReport report = round(check(SETTINGS), NOW);

        assertThat(report.accountsDeferred()).isEqualTo(ACCOUNTS);
        assertThat(report.accountsChecked()).isZero();
    }

    @Test
    void balancesAreCheckedAtMostOncePerBalanceInterval() {
        Duration interval = Duration.ofSeconds(30);
        BalanceCheck check = check(new ReconciliationSettings(
                SETTINGS.finalWithin(),
                SETTINGS.startLookback(),
                SETTINGS.paymentsPerRoundMax(),
                SETTINGS.legSamplePerMille(),
                SETTINGS.legLookupIdsMax(),
                SETTINGS.ledgerRequestsPerSecondMax(),
                SETTINGS.accountsPerRound(),
                interval,
                SETTINGS.pipelineWait(),
                SETTINGS.windowRecordsMax(),
                SETTINGS.detailsMax()));

        assertThat(round(check, NOW).accountsChecked()).isEqualTo(ACCOUNTS);
        assertThat(round(check, NOW.plus(interval).minusMillis(1)).accountsChecked())
                .isZero();
        assertThat(round(check, NOW.plus(interval)).accountsChecked()).isEqualTo(ACCOUNTS);
    }

    @Test
    void aFailingLedgerIsRecorded() {
        PacedLedger down = new PacedLedger(
                new ForwardingLedger(banks.ledger) {
                    @Override
                    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
                        throw new IllegalStateException("the ledger is down");
                    }
                },
                SETTINGS.ledgerRequestsPerSecondMax());
        BalanceCheck check = new BalanceCheck(
                down, readModel, pipeline, new PaymentJudge(down, SETTINGS.legLookupIdsMax()), SETTINGS);

        RoundReport report = round(check, NOW);

        assertThat(report.failure()).isEqualTo("balances: java.lang.IllegalStateException: the ledger is down");
        assertThat(report.accountsChecked()).isZero();
    }

    private Payment settled(Id128 payer, Id128 payee, long amountCentavos) {
        Payment payment = banks.payment(payer, payee, amountCentavos);
        banks.settle(payment);
        return payment;
    }

    private void project(Payment payment, PaymentStatus status) {
        readModel.add(1, row(payment, status), NOW.minusSeconds(120));
    }

    private BalanceCheck check(ReconciliationSettings settings) {
        PacedLedger ledger = new PacedLedger(banks.ledger, settings.ledgerRequestsPerSecondMax());
        return new BalanceCheck(
                ledger, readModel, pipeline, new PaymentJudge(ledger, settings.legLookupIdsMax()), settings);
    }

    private static RoundReport round(BalanceCheck check, Instant now) {
        RoundReport.Builder report = new RoundReport.Builder(SETTINGS.detailsMax());
        check.run(now, report);
        return report.build();
    }
}
