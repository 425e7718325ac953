package io.pagora.reporting.reconciliation.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.reporting.reconciliation.application.Reconciler;
import io.pagora.reporting.reconciliation.application.ReconciliationSettings;
import io.pagora.reporting.reconciliation.application.RoundReport;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.reporting.testsupport.ClearingProgress;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.VoidCause;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * Proves the online reconciliation on real servers (embedded PostgreSQL holding both the read model and the
 * PostgreSQL ledger, an embedded Kafka broker feeding the projection): a workload settled in the ledger by the
 * settlement logic and projected from its events — interbank and on-us, SETTLED, REJECTED and EXPIRED — reconciles
 * with zero mismatches, every payment and every account balance checked; and each kind of planted damage (a final
 * state flipped either way, a statement amount changed, a payment left ACCEPTED) is found and counted under its
 * kind, while the service keeps running. The background job is started with a long interval: the tests drive the
 * rounds themselves, each with a fresh {@link Reconciler} so that every payment is judged again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestPropertySource(
        properties = {
            "pagora.reporting.reconciliation.enabled=true",
            "pagora.reporting.reconciliation.interval=1h",
            "pagora.ledger.backend=postgresql"
        })
class OnlineReconciliationTest extends ReportingIntegrationTest {

    private static final BankId BANK_A = new BankId(11);
    private static final BankId BANK_B = new BankId(22);
    private static final int CUSTOMERS_PER_BANK = 4;
    private static final long CUSTOMER_FUNDING = 1_000_000;
    private static final long RESERVE_FUNDING = 50_000_000;
    /** The workload's pending timeout, long enough for a slow first request; the EXPIRED payments' chains stay pending. */
    private static final int PENDING_TIMEOUT_SECONDS = 60;

    private static final ReconciliationSettings SETTINGS =
            ReconciliationFixtures.settings(Duration.ofMillis(100), 1_000);

    @Autowired
    Ledger reconciliationLedger;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    KafkaPaymentPipeline pipeline;

    private final List<Id128> customers = new ArrayList<>();
    private final List<Payment> settled = new ArrayList<>();
    private final List<Payment> rejected = new ArrayList<>();
    private final List<Payment> expired = new ArrayList<>();

    /** Participants and payments in the ledger, their events projected: 24 SETTLED, 6 REJECTED, 4 EXPIRED. */
    @BeforeAll
    void settleAndProject() {
        Participants participants = new Participants(reconciliationLedger);
        participants.openCentralBank();
        TimeOrderedIds ids = new TimeOrderedIds();
        for (BankId bank : List.of(BANK_A, BANK_B)) {
            participants.registerBank(bank);
            participants.fundReserve(ids.next(), bank, RESERVE_FUNDING);
            List<Long> numbers = new ArrayList<>();
            for (long number = 1; number <= CUSTOMERS_PER_BANK; number++) {
                numbers.add(number);
                customers.add(ChartOfAccounts.customer(bank, number));
            }
            participants.openCustomers(bank, numbers);
            for (long number : numbers) {
                participants.fundCustomer(ids.next(), ChartOfAccounts.customer(bank, number), CUSTOMER_FUNDING);
            }
        }
        List<Payment> all = new ArrayList<>();
        for (int i = 0; i < 34; i++) {
            Id128 payer = customers.get(i % customers.size());
            // Every third payment is on-us (the next customer of the same bank), the others interbank.
            Id128 payee = i % 3 == 0
                    ? customers.get((i + 1) % CUSTOMERS_PER_BANK
                            + (i % customers.size() >= CUSTOMERS_PER_BANK ? CUSTOMERS_PER_BANK : 0))
                    : customers.get((i + CUSTOMERS_PER_BANK) % customers.size());
            all.add(new Payment(ids.nextPaymentId(), payer, payee, 1_000 + 37L * i));
        }
        Settlement settlement = new Settlement(reconciliationLedger, PENDING_TIMEOUT_SECONDS);
        assertThat(settlement.reserve(all)).allMatch(ReservationOutcome.Reserved.class::isInstance);
        settled.addAll(all.subList(0, 24));
        rejected.addAll(all.subList(24, 30));
        expired.addAll(all.subList(30, 34));
        assertThat(settlement.post(settled)).allMatch(ResolutionOutcome.Posted.class::isInstance);
        assertThat(settlement.voidAll(rejected, VoidCause.RECEIVING_BANK_REFUSED))
                .allMatch(ResolutionOutcome.Voided.class::isInstance);

        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            List<PaymentEvent> events = new ArrayList<>();
            for (Payment payment : all) {
                Payments.Payment view = view(payment);
                events.add(view.requested());
                events.add(
                        settled.contains(payment)
                                ? view.settled()
                                : rejected.contains(payment)
                                        ? view.rejected(RejectionReason.RECEIVING_BANK_REFUSED)
                                        : view.expired());
            }
            publisher.publish(events.toArray(PaymentEvent[]::new));
        }
        // As clearing does once the outcomes are acknowledged: the balance checks wait for it.
        ClearingProgress.clearedEverythingPublished(bootstrapServers);
        await().atMost(Duration.ofSeconds(60)).until(() -> finalRows() == all.size());
    }

    @Test
    void aCleanSettledWorkloadReconcilesWithZeroMismatches() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ReconciliationJob job = job(meters);

        RoundReport first = job.runRound();
        RoundReport second = job.runRound();

        assertThat(first.mismatchTotal()).as("%s", first.mismatches()).isZero();
        assertThat(second.mismatchTotal()).as("%s", second.mismatches()).isZero();
        assertThat(first.paymentsChecked()).isEqualTo(34);
        assertThat(first.paymentsCaughtUp()).isTrue();
        assertThat(second.paymentsChecked()).as("each payment is judged once").isZero();
        // The ledger's own account set: every customer and every bank's reserve and transit, from round one.
        assertThat(first.accountsChecked()).isEqualTo(customers.size() + 4);
        assertThat(second.accountsChecked()).isEqualTo(customers.size() + 4);
        assertThat(second.accountsDeferred()).isZero();
        assertThat(meters.get("pagora.reconciliation.checked")
                        .tag("check", "payment")
                        .counter()
                        .count())
                .isEqualTo(34);
        assertThat(meters.get("pagora.reconciliation.mismatches").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
        assertMoneyInvariants();
    }

    @Test
    void aFinalStateFlippedEitherWayIsFoundAndCountedByKind() {
        Payment wronglyExpired = settled.get(1);
        Payment wronglySettled = rejected.get(0);
        tamper("UPDATE reporting.payments SET status = 'EXPIRED' WHERE payment_id = ?", wronglyExpired);
        tamper("UPDATE reporting.payments SET status = 'SETTLED', reason = NULL WHERE payment_id = ?", wronglySettled);
        try {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            RoundReport report = job(meters).runRound();

            assertThat(report.mismatchCounts())
                    .containsEntry(MismatchKind.UNSETTLED_BUT_POSTED, 1L)
                    .containsEntry(MismatchKind.SETTLED_NOT_POSTED, 1L);
            assertThat(report.mismatches())
                    .anySatisfy(m -> assertThat(m.subject())
                            .contains(wronglyExpired.id().value().toString()));
            assertThat(mismatches(meters, MismatchKind.UNSETTLED_BUT_POSTED)).isEqualTo(1);
            assertThat(mismatches(meters, MismatchKind.SETTLED_NOT_POSTED)).isEqualTo(1);
        } finally {
            tamper("UPDATE reporting.payments SET status = 'SETTLED' WHERE payment_id = ?", wronglyExpired);
            tamper(
                    "UPDATE reporting.payments SET status = 'REJECTED', reason = 'RECEIVING_BANK_REFUSED' WHERE payment_id = ?",
                    wronglySettled);
        }
        assertMoneyInvariants();
    }

    @Test
    void anAccountsSettledTotalChangedIsFoundOnceTheAccountHeldStillAndCountedAsBalance() {
        Payment payment = settled.get(2);
        tamperAccount(
                "UPDATE reporting.account_flows SET outgoing_centavos = outgoing_centavos + 1 "
                        + "WHERE account_id = ?",
                payment.payer());
        try {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            ReconciliationJob job = job(meters);

            RoundReport first = job.runRound();
            RoundReport second = job.runRound();

            assertThat(first.mismatchTotal())
                    .as("a disagreement is confirmed in a later round, never the first")
                    .isZero();
            assertThat(first.accountsDeferred()).isGreaterThanOrEqualTo(1);
            assertThat(second.mismatchCounts()).isEqualTo(Map.of(MismatchKind.BALANCE, 1L));
            assertThat(second.mismatches().getFirst().subject())
                    .contains(payment.payer().toString());
            assertThat(second.mismatches().getFirst().detail()).contains("difference -1");
            assertThat(mismatches(meters, MismatchKind.BALANCE)).isEqualTo(1);

            RoundReport third = job.runRound();
            assertThat(third.mismatchTotal())
                    .as("the same disagreement is counted once")
                    .isZero();
        } finally {
            tamperAccount(
                    "UPDATE reporting.account_flows SET outgoing_centavos = outgoing_centavos - 1 "
                            + "WHERE account_id = ?",
                    payment.payer());
        }
        assertMoneyInvariants();
    }

    @Test
    void aPaymentLeftAcceptedAfterItsLifetimeIsStuck() throws InterruptedException {
        Payment payment = expired.get(0);
        // Stuck is five final-withins after it became visible (projected): make sure that much time passed.
        Thread.sleep(SETTINGS.finalWithin().multipliedBy(6).toMillis());
        tamper("UPDATE reporting.payments SET status = 'ACCEPTED', final_at = NULL WHERE payment_id = ?", payment);
        try {
            RoundReport report = job(new SimpleMeterRegistry()).runRound();

            assertThat(report.mismatchCounts()).isEqualTo(Map.of(MismatchKind.STUCK, 1L));
        } finally {
            tamper(
                    "UPDATE reporting.payments SET status = 'EXPIRED', final_at = accepted_at WHERE payment_id = ?",
                    payment);
        }
    }

    @Test
    void aPaymentIsJudgedOnlyOnceItMustBeFinalAndTheLagSaysHowFarBehind() {
        ReconciliationSettings notYet =
                ReconciliationFixtures.settings(Duration.ofHours(1), Duration.ofHours(2), 1_000);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ReconciliationJob job = new ReconciliationJob(
                new Reconciler(
                        reconciliationLedger,
                        new JdbcReconciliationReadModel(jdbc),
                        pipeline,
                        Clock.systemUTC(),
                        notYet),
                Clock.systemUTC(),
                Duration.ofHours(1),
                meters);

        RoundReport report = job.runRound();

        assertThat(report.paymentsChecked())
                .as("accepted less than final-within ago: maybe still in flight")
                .isZero();
        assertThat(report.paymentsCaughtUp()).isTrue();
        assertThat(meters.get("pagora.reconciliation.lag").gauge().value()).isBetween(3_600.0, 3_660.0);
    }

    /**
     * A payment that is late but not long overdue (clearing down for a while, then back) is lag, not a
     * mismatch: it holds the cursor and is judged again once final. Before, every payment of a one-minute
     * clearing outage was counted STUCK for good (seen under `pagora chaos kill-clearing-twice`).
     */
    @Test
    void aLatePaymentHoldsTheCursorAndIsJudgedOnceFinalInsteadOfCountedStuck() {
        Payment payment = expired.get(1);
        // Its age since it became visible: accepted, and projected (a payment is due final-within after both).
        Instant visibleAt = jdbc.queryForObject(
                        "SELECT greatest(accepted_at, projected_at) FROM reporting.payments " + "WHERE payment_id = ?",
                        java.time.OffsetDateTime.class,
                        payment.id().value().toUuid())
                .toInstant();
        Duration age = Duration.between(visibleAt, Instant.now());
        ReconciliationSettings late = ReconciliationFixtures.settings(age.dividedBy(2), Duration.ofHours(2), 1_000);
        ReconciliationJob job = new ReconciliationJob(
                new Reconciler(
                        reconciliationLedger, new JdbcReconciliationReadModel(jdbc), pipeline, Clock.systemUTC(), late),
                Clock.systemUTC(),
                Duration.ofHours(1),
                new SimpleMeterRegistry());
        tamper("UPDATE reporting.payments SET status = 'ACCEPTED', final_at = NULL WHERE payment_id = ?", payment);
        RoundReport whileLate;
        try {
            whileLate = job.runRound();
        } finally {
            tamper(
                    "UPDATE reporting.payments SET status = 'EXPIRED', final_at = accepted_at WHERE payment_id = ?",
                    payment);
        }
        RoundReport onceFinal = job.runRound();

        assertThat(whileLate.mismatchCounts()).as("late, not stuck").isEmpty();
        assertThat(whileLate.paymentsCaughtUp()).isFalse();
        assertThat(onceFinal.mismatchCounts()).isEmpty();
        assertThat(onceFinal.paymentsChecked())
                .as("the held payment and those after it, judged now")
                .isPositive();
        assertThat(onceFinal.paymentsCaughtUp()).isTrue();
    }

    @Test
    void theServiceExportsTheReconciliationMetrics() {
        String metrics = operator().get("/actuator/prometheus").body();

        assertThat(metrics)
                .contains(
                        "pagora_reconciliation_checked_total{",
                        "pagora_reconciliation_mismatches_total{",
                        "kind=\"balance\"",
                        "pagora_reconciliation_lag_seconds{",
                        "pagora_reconciliation_accounts_deferred{",
                        "pagora_reconciliation_last_run_timestamp_seconds{",
                        "pagora_reconciliation_rounds_total{");
    }

    // ------------------------------------------------------------------------------------------ helpers

    private ReconciliationJob job(SimpleMeterRegistry meters) {
        Reconciler reconciler = new Reconciler(
                reconciliationLedger, new JdbcReconciliationReadModel(jdbc), pipeline, Clock.systemUTC(), SETTINGS);
        return new ReconciliationJob(reconciler, Clock.systemUTC(), Duration.ofHours(1), meters);
    }

    private static double mismatches(SimpleMeterRegistry meters, MismatchKind kind) {
        return meters.get("pagora.reconciliation.mismatches")
                .tag("kind", kind.tag)
                .counter()
                .count();
    }

    private void tamper(String sql, Payment payment) {
        assertThat(jdbc.update(sql, payment.id().value().toUuid())).isEqualTo(1);
    }

    private void tamperAccount(String sql, Id128 account) {
        assertThat(jdbc.update(sql, account.toUuid())).isEqualTo(1);
    }

    private int finalRows() {
        return jdbc.queryForObject("SELECT count(*) FROM reporting.payments WHERE status <> 'ACCEPTED'", Integer.class);
    }

    private static Payments.Payment view(Payment payment) {
        return new Payments.Payment(
                payment.id().value().toString(),
                payment.payer().toString(),
                payment.payee().toString(),
                payment.amountCentavos(),
                java.time.Instant.now());
    }

    /** Σdebits = Σcredits (posted and pending), no limited account below zero, every payment in one final state. */
    private void assertMoneyInvariants() {
        ReconciliationFixtures.assertLedgerInvariants(reconciliationLedger);
        assertThat(finalRows()).isEqualTo(settled.size() + rejected.size() + expired.size());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reporting.payments", Integer.class))
                .isEqualTo(settled.size() + rejected.size() + expired.size());
    }
}
