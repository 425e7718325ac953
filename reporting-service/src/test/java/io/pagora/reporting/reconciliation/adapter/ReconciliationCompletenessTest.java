package io.pagora.reporting.reconciliation.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.Transfer;
import io.pagora.reporting.adapter.kafka.ProjectionListener;
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
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.context.TestPropertySource;

/**
 * What the reconciliation must never miss, on real servers as {@link OnlineReconciliationTest}:
 * a payment projected long after it was accepted is judged once it projects; a round whose later step fails keeps
 * (counts and logs) what its earlier steps found; a payment the ledger settled but the read model never saw shows
 * as a balance mismatch of accounts the read model knows nothing of; and the projection keeps each account's
 * settled totals current, so that no reconciliation query sums the payments table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestPropertySource(
        properties = {
            "pagora.reporting.reconciliation.enabled=true",
            "pagora.reporting.reconciliation.interval=1h",
            "pagora.ledger.backend=postgresql"
        })
class ReconciliationCompletenessTest extends ReportingIntegrationTest {

    private static final BankId BANK_A = new BankId(31);
    private static final BankId BANK_B = new BankId(42);
    private static final int CUSTOMERS_PER_BANK = 3;
    private static final long CUSTOMER_FUNDING = 1_000_000;
    private static final long RESERVE_FUNDING = 50_000_000;
    private static final int PENDING_TIMEOUT_SECONDS = 60;
    /** Every payment's legs checked (the sample is everything): these tests are about which payments are judged. */
    private static final ReconciliationSettings SETTINGS =
            ReconciliationFixtures.settings(Duration.ofMillis(100), 1_000);

    @Autowired
    Ledger reconciliationLedger;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    KafkaPaymentPipeline pipeline;

    @Autowired
    DataSource dataSource;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    private final TimeOrderedIds ids = new TimeOrderedIds();
    private final List<Id128> customers = new ArrayList<>();
    private final List<Payment> settled = new ArrayList<>();

    /** Two banks, three customers each, 12 payments settled in the ledger and projected (a third of them on-us). */
    @BeforeAll
    void settleAndProject() {
        Participants participants = new Participants(reconciliationLedger);
        participants.openCentralBank();
        for (BankId bank : List.of(BANK_A, BANK_B)) {
            customers.addAll(openBank(participants, bank, 1, CUSTOMERS_PER_BANK));
        }
        for (int i = 0; i < 12; i++) {
            Id128 payer = customers.get(i % customers.size());
            Id128 payee = i % 3 == 0
                    ? customers.get(sameBankNext(i % customers.size()))
                    : customers.get((i + CUSTOMERS_PER_BANK) % customers.size());
            settled.add(new Payment(ids.nextPaymentId(), payer, payee, 500 + 11L * i));
        }
        settle(settled);
        publish(settled, false);
        await().atMost(Duration.ofSeconds(60)).until(() -> finalRows() == settled.size());
    }

    /**
     * The cursor follows projection order, not acceptance time: a payment accepted ten minutes ago and projected only
     * now (a replay of an old key, a Kafka outage longer than final-within, a payment-api clock behind) is judged once
     * it projects. Its read model here says REJECTED while the ledger posted it.
     */
    @Test
    void aPaymentProjectedAfterTheCursorPassedItsAcceptanceIsJudgedOnceItProjects() throws Exception {
        ReconciliationJob job = job(reconciliationLedger, new SimpleMeterRegistry());
        RoundReport before = job.runRound();
        assertThat(before.paymentsCaughtUp()).isTrue();
        assertThat(before.paymentsChecked()).as("the workload").isGreaterThanOrEqualTo(settled.size());

        Instant tenMinutesAgo = Instant.now().minus(Duration.ofMinutes(10));
        PaymentId oldId = new TimeOrderedIds(Clock.fixed(tenMinutesAgo, ZoneOffset.UTC)).nextPaymentId();
        Payment late = new Payment(oldId, customers.get(0), customers.get(CUSTOMERS_PER_BANK), 777);
        settle(List.of(late));
        publish(List.of(late), true);
        awaitStatus(late, "REJECTED");
        letProjectedRowsFallDue();

        RoundReport after = job.runRound();

        assertThat(after.paymentsChecked())
                .as("the late payment, judged once it projected")
                .isEqualTo(1);
        assertThat(after.mismatchCounts()).containsEntry(MismatchKind.UNSETTLED_BUT_POSTED, 1L);
        assertThat(after.mismatches())
                .anySatisfy(m -> assertThat(m.subject()).contains(oldId.value().toString()));
        // Put the read model right again for the other tests: the ledger posted it.
        jdbc.update(
                "DELETE FROM reporting.payments WHERE payment_id = ?",
                oldId.value().toUuid());
        publishSettled(late);
    }

    /**
     * Concurrent consumers commit out of order: a row written by a transaction that commits after a later
     * projection's must not be skipped by a cursor that already saw the later one. Here a transaction inserts
     * a payment's row (REJECTED, while the ledger posted it) and stays open while another payment is projected
     * and committed behind it; the later payment waits, and once the first commits both are judged.
     */
    @Test
    void aRowCommittedAfterALaterProjectionIsStillJudged() throws Exception {
        ReconciliationJob job = job(reconciliationLedger, new SimpleMeterRegistry());
        // Every row earlier tests projected is due and judged first, so the round below can only see this test's.
        letProjectedRowsFallDue();
        assertThat(job.runRound().paymentsCaughtUp()).isTrue();
        Payment slow = new Payment(ids.nextPaymentId(), customers.get(1), customers.get(CUSTOMERS_PER_BANK + 1), 333);
        Payment quick = new Payment(ids.nextPaymentId(), customers.get(2), customers.get(CUSTOMERS_PER_BANK + 2), 444);
        settle(List.of(slow, quick));

        try {
            judgedOnceCommitted(job, slow, quick);
        } finally { // the planted row never outlives the test, whatever it found
            jdbc.update(
                    "DELETE FROM reporting.payments WHERE payment_id = ?",
                    slow.id().value().toUuid());
            publishSettled(slow);
        }
    }

    private void judgedOnceCommitted(ReconciliationJob job, Payment slow, Payment quick) throws Exception {
        RoundReport whileOpen;
        try (Connection open = dataSource.getConnection()) {
            open.setAutoCommit(false);
            try (PreparedStatement insert = open.prepareStatement("""
                    INSERT INTO reporting.payments (payment_id, payer_account_id, payee_account_id, payer_bank_ispb,
                            payee_bank_ispb, amount_centavos, accepted_at, status, reason, final_at, projected_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, now(), 'REJECTED', 'RECEIVING_BANK_REFUSED', now(), now(), now())
                    """)) {
                insert.setObject(1, slow.id().value().toUuid());
                insert.setObject(2, slow.payer().toUuid());
                insert.setObject(3, slow.payee().toUuid());
                insert.setInt(4, BANK_A.ispb());
                insert.setInt(5, BANK_B.ispb());
                insert.setLong(6, slow.amountCentavos());
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            publish(List.of(quick), false);
            awaitStatus(quick, "SETTLED");
            letProjectedRowsFallDue();

            whileOpen = job.runRound();
            open.commit();
        }
        letProjectedRowsFallDue();
        RoundReport afterCommit = job.runRound();

        assertThat(whileOpen.paymentsChecked())
                .as("the later projection waits for the open transaction")
                .isZero();
        assertThat(afterCommit.paymentsChecked()).as("both, once it committed").isEqualTo(2);
        assertThat(afterCommit.mismatches()).anySatisfy(m -> {
            assertThat(m.kind()).isEqualTo(MismatchKind.UNSETTLED_BUT_POSTED);
            assertThat(m.subject()).contains(slow.id().value().toString());
        });
    }

    /**
     * A row written into the read model outside the projection (here a SETTLED payment the ledger never saw, as a
     * restore or a hand-written fix might leave) moves no account's totals, so the balances agree; even with no leg
     * sample it is reported: its transaction's rows disagree with the digest the projection writes for what it
     * inserts, and the ledger is asked about it.
     */
    @Test
    void aRowWrittenOutsideTheProjectionIsReportedWhateverTheSample() throws Exception {
        ReconciliationJob job = job(
                reconciliationLedger,
                ReconciliationFixtures.settings(Duration.ofMillis(100), Duration.ofHours(1), 0, 1_020, 1_000),
                new SimpleMeterRegistry());
        Payment planted = new Payment(ids.nextPaymentId(), customers.get(0), customers.get(CUSTOMERS_PER_BANK), 999);
        jdbc.update(
                """
                INSERT INTO reporting.payments (payment_id, payer_account_id, payee_account_id, payer_bank_ispb,
                        payee_bank_ispb, amount_centavos, accepted_at, status, final_at, projected_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, now(), 'SETTLED', now(), now(), now())
                """,
                planted.id().value().toUuid(),
                planted.payer().toUuid(),
                planted.payee().toUuid(),
                BANK_A.ispb(),
                BANK_B.ispb(),
                planted.amountCentavos());
        try {
            letProjectedRowsFallDue();
            List<RoundReport> rounds = List.of(job.runRound(), job.runRound());

            assertThat(rounds.stream()
                            .mapToLong(RoundReport::paymentLegsChecked)
                            .sum())
                    .as("no sample: only the planted row's legs are looked up")
                    .isEqualTo(1);
            assertThat(rounds.stream().flatMap(r -> r.mismatches().stream()))
                    .anySatisfy(m -> {
                        assertThat(m.kind()).isEqualTo(MismatchKind.UNPROJECTED);
                        assertThat(m.detail())
                                .contains("holds 1 payments of 999 centavos")
                                .contains("wrote 0 payments");
                    })
                    .anySatisfy(m -> {
                        assertThat(m.kind()).isEqualTo(MismatchKind.SETTLED_NOT_POSTED);
                        assertThat(m.subject()).contains(planted.id().value().toString());
                    })
                    .noneMatch(m -> m.kind() == MismatchKind.BALANCE);
        } finally {
            jdbc.update(
                    "DELETE FROM reporting.payments WHERE payment_id = ?",
                    planted.id().value().toUuid());
        }
        // The plant moved no money: the ledger still balances, and the read model no longer holds the row.
        ReconciliationFixtures.assertLedgerInvariants(reconciliationLedger);
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM reporting.payments WHERE payment_id = ?",
                        Integer.class,
                        planted.id().value().toUuid()))
                .isZero();
    }

    /**
     * The projection's own rows agree with its digests: a clean workload walked with no sample reports nothing
     * unprojected, and every transaction since the migration that inserted payments wrote one digest of them.
     */
    @Test
    void everyProjectionTransactionWritesTheDigestOfTheRowsItInserted() {
        RoundReport round = job(
                        reconciliationLedger,
                        ReconciliationFixtures.settings(Duration.ofMillis(100), Duration.ofHours(1), 0, 1_020, 1_000),
                        new SimpleMeterRegistry())
                .runRound();

        assertThat(round.paymentsChecked()).isGreaterThanOrEqualTo(settled.size());
        assertThat(round.mismatches()).noneMatch(m -> m.kind() == MismatchKind.UNPROJECTED);
        long undigested = jdbc.queryForObject("""
                SELECT count(*) FROM (
                    SELECT projected_xid, count(*) AS payments, sum(amount_centavos) AS amount FROM reporting.payments
                    WHERE projected_xid > (SELECT projected_xid FROM reporting.projection_digests_from)
                    GROUP BY projected_xid
                ) r LEFT JOIN reporting.projection_digests d USING (projected_xid)
                WHERE d.payments IS DISTINCT FROM r.payments OR d.amount_centavos IS DISTINCT FROM r.amount
                """, Long.class);
        long projected = jdbc.queryForObject("SELECT count(*) FROM reporting.projection_digests", Long.class);
        assertThat(projected).as("the workload's transactions").isPositive();
        assertThat(undigested)
                .as("transactions whose rows are not their digest's")
                .isZero();
    }

    /**
     * A balance step that throws after the payment step found a mismatch and moved its cursor past it: the round's
     * report still counts and logs that mismatch (it is never judged again).
     */
    @Test
    void aRoundWhoseBalanceStepFailsKeepsWhatItsPaymentStepFound() throws InterruptedException {
        Payment flipped = settled.get(4);
        letProjectedRowsFallDue(); // none left for later
        tamper("UPDATE reporting.payments SET status = 'EXPIRED' WHERE payment_id = ?", flipped);
        AtomicBoolean accountsFail = new AtomicBoolean(true);
        Ledger failingAccounts = new ForwardingLedger(reconciliationLedger) {
            @Override
            public List<Account> lookupAccounts(List<Id128> accounts) {
                if (accountsFail.get()) {
                    throw new LedgerUnavailableException("planted: lookup_accounts fails", null);
                }
                return super.lookupAccounts(accounts);
            }
        };
        try {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            ReconciliationJob job = job(failingAccounts, meters);

            job.runRound();

            assertThat(mismatches(meters, MismatchKind.UNSETTLED_BUT_POSTED))
                    .as("counted although the round failed")
                    .isEqualTo(1);
            assertThat(meters.get("pagora.reconciliation.rounds")
                            .tag("result", "failed")
                            .counter()
                            .count())
                    .isEqualTo(1);

            accountsFail.set(false);
            RoundReport next = job.runRound();
            assertThat(next.paymentsChecked())
                    .as("the judged payments are not judged twice")
                    .isZero();
            assertThat(next.accountsChecked())
                    .as("the balances, checked once the ledger answers")
                    .isPositive();
            assertThat(mismatches(meters, MismatchKind.UNSETTLED_BUT_POSTED)).isEqualTo(1);
        } finally {
            tamper("UPDATE reporting.payments SET status = 'SETTLED' WHERE payment_id = ?", flipped);
        }
    }

    /**
     * The accounts checked are the ledger's own, not those with projected payments: a payment the ledger settled and
     * the read model never received, between customers (and banks) with no other payment, shows.
     */
    @Test
    void aPaymentWhollyMissingFromTheReadModelShowsAsABalanceMismatch() {
        Participants participants = new Participants(reconciliationLedger);
        BankId bankC = new BankId(53);
        BankId bankD = new BankId(64);
        Id128 payer = openBank(participants, bankC, 1, 1).getFirst();
        Id128 payee = openBank(participants, bankD, 1, 1).getFirst();
        settle(List.of(new Payment(ids.nextPaymentId(), payer, payee, 4_321)));
        ReconciliationJob job = job(reconciliationLedger, new SimpleMeterRegistry());

        List<RoundReport> rounds = List.of(job.runRound(), job.runRound(), job.runRound());

        List<String> subjects = rounds.stream()
                .flatMap(r -> r.mismatches().stream())
                .filter(m -> m.kind() == MismatchKind.BALANCE)
                .map(m -> m.subject())
                .toList();
        // The payment sides (what only payments move: the payer's debits, its bank's reserve debits) must agree
        // exactly.
        assertThat(subjects).anySatisfy(s -> assertThat(s).contains(payer.toString()));
        assertThat(subjects)
                .anySatisfy(s ->
                        assertThat(s).contains(ChartOfAccounts.reserve(bankC).toString()));
    }

    /**
     * The projection keeps each account's and each bank's settled totals in its own transaction, so a balance check
     * reads them by key instead of summing a table that grows.
     */
    @Test
    void theProjectionKeepsEachAccountsAndEachBanksSettledTotalsCurrent() {
        long wrongAccounts = jdbc.queryForObject("""
                WITH expected AS (
                    SELECT account_id,
                           coalesce(sum(amount_centavos) FILTER (WHERE direction = 'DEBIT'), 0) AS outgoing,
                           coalesce(sum(amount_centavos) FILTER (WHERE direction = 'CREDIT'), 0) AS incoming
                    FROM reporting.statement_entries GROUP BY account_id
                )
                SELECT count(*) FROM expected e FULL JOIN reporting.account_flows f USING (account_id)
                WHERE f.outgoing_centavos IS DISTINCT FROM e.outgoing OR f.incoming_centavos IS DISTINCT FROM e.incoming
                """, Long.class);
        long wrongBanks = jdbc.queryForObject("""
                WITH expected AS (
                    SELECT bank_ispb, sum(sent) AS sent, sum(received) AS received FROM (
                        SELECT payer_bank_ispb AS bank_ispb, amount_centavos AS sent, 0 AS received
                        FROM reporting.payments WHERE status = 'SETTLED' AND payer_bank_ispb <> payee_bank_ispb
                        UNION ALL
                        SELECT payee_bank_ispb, 0, amount_centavos
                        FROM reporting.payments WHERE status = 'SETTLED' AND payer_bank_ispb <> payee_bank_ispb
                    ) flows GROUP BY bank_ispb
                )
                SELECT count(*) FROM expected e FULL JOIN reporting.bank_flows f USING (bank_ispb)
                WHERE f.sent_centavos IS DISTINCT FROM e.sent OR f.received_centavos IS DISTINCT FROM e.received
                """, Long.class);

        assertThat(jdbc.queryForObject("SELECT count(*) FROM reporting.account_flows", Long.class))
                .isGreaterThanOrEqualTo(customers.size());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reporting.bank_flows", Long.class))
                .isGreaterThanOrEqualTo(2);
        assertThat(wrongAccounts).isZero();
        assertThat(wrongBanks).isZero();
    }

    /**
     * The cost bound: without a sample no payment's legs are looked up (every payment is still judged); with
     * one, the ledger sees requests of at most leg-lookup-ids-max ids, spaced by ledger-requests-per-second-max.
     */
    @Test
    void legsAreLookedUpOnlyForTheSampleInBoundedPacedRequests() {
        RecordingLedger none = new RecordingLedger(reconciliationLedger);
        RoundReport unsampled = job(
                        none,
                        ReconciliationFixtures.settings(Duration.ofMillis(100), Duration.ofHours(1), 0, 9, 1_000),
                        new SimpleMeterRegistry())
                .runRound();

        assertThat(unsampled.paymentsChecked()).isGreaterThanOrEqualTo(settled.size());
        assertThat(unsampled.paymentLegsChecked()).isZero();
        assertThat(none.transferIdsPerLookup).isEmpty();

        RecordingLedger all = new RecordingLedger(reconciliationLedger);
        RoundReport sampled = job(
                        all,
                        ReconciliationFixtures.settings(Duration.ofMillis(100), Duration.ofHours(1), 1_000, 9, 20),
                        new SimpleMeterRegistry())
                .runRound();

        assertThat(sampled.paymentLegsChecked())
                .isEqualTo(sampled.paymentsChecked())
                .isGreaterThanOrEqualTo(settled.size());
        assertThat(all.transferIdsPerLookup)
                .hasSizeGreaterThanOrEqualTo(settled.size() / 3)
                .allSatisfy(ids -> assertThat(ids).isBetween(1, 9));
        List<Long> sent = all.sentNanos;
        for (int i = 1; i < sent.size(); i++) {
            assertThat(sent.get(i) - sent.get(i - 1))
                    .as("request %d, 20 a second at most", i)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(45).toNanos());
        }
    }

    /**
     * A payment outside the sample whose read model says SETTLED while the ledger never posted it moves its
     * payer's balance: the reported account points at its latest settled payments, whose legs are then looked up.
     */
    @Test
    void aSettledPaymentOutsideTheSampleIsFoundThroughTheAccountItUnbalances() {
        Participants participants = new Participants(reconciliationLedger);
        Id128 payer = openBank(participants, new BankId(75), 1, 1).getFirst();
        Id128 payee = openBank(participants, new BankId(86), 1, 1).getFirst();
        Payment neverPosted = new Payment(ids.nextPaymentId(), payer, payee, 888);
        publishSettled(neverPosted);
        ReconciliationJob job = job(
                reconciliationLedger,
                ReconciliationFixtures.settings(Duration.ofMillis(100), Duration.ofHours(1), 0, 1_020, 1_000),
                new SimpleMeterRegistry());

        List<RoundReport> rounds = List.of(job.runRound(), job.runRound(), job.runRound());

        assertThat(rounds.stream().flatMap(r -> r.mismatches().stream()))
                .anySatisfy(m -> {
                    assertThat(m.kind()).isEqualTo(MismatchKind.BALANCE);
                    assertThat(m.subject()).contains(payer.toString());
                })
                .anySatisfy(m -> {
                    assertThat(m.kind()).isEqualTo(MismatchKind.SETTLED_NOT_POSTED);
                    assertThat(m.subject()).contains(neverPosted.id().value().toString());
                });
    }

    /**
     * A projection lag longer than a disagreement's confirmation (a Kafka outage, a reporting backlog) raises no
     * balance alarm on a healthy platform. Here the projection is stopped (a backlog) while a payment settles in the ledger and its
     * outcome is published: the ledger is ahead of the read model for as long as the lag lasts, which is lag, not a
     * mismatch. Once the projection catches up, the same balances are judged, and agree.
     */
    @Test
    void aProjectionLagLongerThanConfirmAfterRaisesNoBalanceMismatch() {
        Participants participants = new Participants(reconciliationLedger);
        Id128 payer = openBank(participants, new BankId(119), 1, 1).getFirst();
        Id128 payee = openBank(participants, new BankId(121), 1, 1).getFirst();
        Payment lagging = new Payment(ids.nextPaymentId(), payer, payee, 2_468);
        ReconciliationJob job = job(reconciliationLedger, new SimpleMeterRegistry());
        MessageListenerContainer projection = listeners.getListenerContainer(ProjectionListener.LISTENER_ID);
        List<RoundReport> whileLagging = new ArrayList<>();
        projection.stop();
        try {
            try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
                settleAsClearing(lagging, publisher, null);
            }
            ClearingProgress.clearedEverythingPublished(bootstrapServers);
            for (int round = 0; round < 3; round++) {
                whileLagging.add(job.runRound());
            }
        } finally {
            projection.start();
        }
        awaitStatus(lagging, "SETTLED");
        RoundReport caughtUp = job.runRound();

        assertThat(whileLagging.stream().flatMap(r -> r.mismatches().stream()))
                .as("a projection lag is not a balance mismatch")
                .noneMatch(m -> m.kind() == MismatchKind.BALANCE);
        assertThat(whileLagging.getLast().accountsDeferred())
                .as("the balances wait for the projection")
                .isPositive();
        String reserve = ChartOfAccounts.reserve(new BankId(119)).toString();
        assertThat(caughtUp.mismatches())
                .noneMatch(m -> m.kind() == MismatchKind.BALANCE
                        && (m.subject().contains(payer.toString())
                                || m.subject().contains(reserve)));
        assertThat(caughtUp.accountsChecked())
                .as("judged once the projection holds the payment")
                .isPositive();
        ReconciliationFixtures.assertLedgerInvariants(reconciliationLedger);
    }

    /**
     * Accounts that move all the time (a reserve, a transit) are judged under load, at a consistent cut. Here payments
     * keep flowing from bank 97 to bank 108 (each settled in the ledger, then its outcome published, as clearing does)
     * through every round, while bank 97's settled interbank total in the read model is one centavo off: its reserve
     * and its transit are reported, and no other account of the flow is.
     */
    @Test
    void aReserveAndATransitThatDisagreeAreReportedWhilePaymentsKeepFlowing() throws Exception {
        Participants participants = new Participants(reconciliationLedger);
        BankId sender = new BankId(97);
        BankId receiver = new BankId(108);
        List<Id128> payers = openBank(participants, sender, 1, 2);
        List<Id128> payees = openBank(participants, receiver, 1, 2);
        List<Id128> flowAccounts = new ArrayList<>(payers);
        flowAccounts.addAll(payees);
        flowAccounts.addAll(List.of(
                ChartOfAccounts.reserve(sender),
                ChartOfAccounts.transit(sender),
                ChartOfAccounts.reserve(receiver),
                ChartOfAccounts.transit(receiver)));
        Payment first = new Payment(ids.nextPaymentId(), payers.get(0), payees.get(0), 1_000);
        settle(List.of(first));
        publishSettled(first);
        long reserveDebitsBefore = reconciliationLedger
                .lookupAccounts(List.of(ChartOfAccounts.reserve(sender)))
                .getFirst()
                .debitsPosted();
        assertThat(jdbc.update(
                        "UPDATE reporting.bank_flows SET sent_centavos = sent_centavos + 1 WHERE bank_ispb = ?",
                        sender.ispb()))
                .isEqualTo(1);
        List<Payment> flowed = Collections.synchronizedList(new ArrayList<>());
        List<RoundReport> rounds = new ArrayList<>();
        try (Flow flow = new Flow(payers, payees, flowed)) {
            ReconciliationJob job = job(reconciliationLedger, new SimpleMeterRegistry());
            await().atMost(Duration.ofSeconds(30)).until(() -> flowed.size() >= 3);
            // 200 ms between rounds: long enough for the flow to move every account of it (a payment every few ms).
            Duration betweenRounds = Duration.ofMillis(200);
            await().atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollDelay(betweenRounds)
                    .pollInterval(betweenRounds)
                    .until(() -> {
                        rounds.add(job.runRound());
                        return reported(rounds, ChartOfAccounts.transit(sender));
                    });
            flow.assertFlowing();
        } finally {
            jdbc.update(
                    "UPDATE reporting.bank_flows SET sent_centavos = sent_centavos - 1 WHERE bank_ispb = ?",
                    sender.ispb());
        }

        assertThat(reconciliationLedger
                        .lookupAccounts(List.of(ChartOfAccounts.reserve(sender)))
                        .getFirst()
                        .debitsPosted())
                .as("payments flowed through the reserve during the rounds")
                .isGreaterThan(reserveDebitsBefore);
        assertThat(reported(rounds, ChartOfAccounts.reserve(sender)))
                .as("%s", rounds)
                .isTrue();
        assertThat(reported(rounds, ChartOfAccounts.transit(sender)))
                .as("%s", rounds)
                .isTrue();
        assertThat(rounds.stream().flatMap(r -> r.mismatches().stream()))
                .filteredOn(m -> m.kind() == MismatchKind.BALANCE)
                .filteredOn(m -> flowAccounts.stream().anyMatch(a -> m.subject().contains(a.toString())))
                .as("only the sender's bank accounts disagree")
                .allSatisfy(m -> assertThat(m.subject())
                        .containsAnyOf(
                                ChartOfAccounts.reserve(sender).toString(),
                                ChartOfAccounts.transit(sender).toString()));
        for (Payment payment : flowed) {
            awaitStatus(payment, "SETTLED");
        }
        ReconciliationFixtures.assertLedgerInvariants(reconciliationLedger);
    }

    private static boolean reported(List<RoundReport> rounds, Id128 account) {
        return rounds.stream()
                .flatMap(r -> r.mismatches().stream())
                .anyMatch(m -> m.kind() == MismatchKind.BALANCE && m.subject().contains(account.toString()));
    }

    /**
     * Plays clearing for a stream of payments, one at a time, until closed (at most 5,000): the request is published,
     * the payment settled in the ledger, its outcome published, then clearing's offsets committed.
     */
    private final class Flow implements AutoCloseable {
        private static final int FLOW_PAYMENTS_MAX = 5_000;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<Payment> flowed;
        private final Thread thread;

        Flow(List<Id128> payers, List<Id128> payees, List<Payment> flowed) {
            this.flowed = flowed;
            thread = Thread.ofPlatform().name("payment-flow").start(() -> run(payers, payees));
        }

        private void run(List<Id128> payers, List<Id128> payees) {
            try (EventPublisher publisher = new EventPublisher(bootstrapServers);
                    ClearingProgress clearing = new ClearingProgress(bootstrapServers)) {
                for (int i = 0; i < FLOW_PAYMENTS_MAX && !stop.get(); i++) {
                    Payment payment = new Payment(
                            ids.nextPaymentId(),
                            payers.get(i % payers.size()),
                            payees.get(i % payees.size()),
                            1_000 + i % 97);
                    settleAsClearing(payment, publisher, clearing);
                    flowed.add(payment);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }

        void assertFlowing() {
            assertThat(failure.get()).as("the flow failed").isNull();
            assertThat(thread.isAlive()).as("the flow still runs").isTrue();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(Duration.ofSeconds(30));
            assertThat(failure.get()).as("the flow failed").isNull();
        }
    }

    /**
     * As clearing does: the request is in Kafka before the ledger posts, the outcome is acknowledged after it, and
     * only then are clearing's offsets committed (when {@code clearing} is given).
     */
    private void settleAsClearing(Payment payment, EventPublisher publisher, ClearingProgress clearing) {
        Payments.Payment view = view(payment);
        publisher.publish(view.requested());
        settle(List.of(payment));
        publisher.publish(view.settled());
        if (clearing != null) {
            clearing.clearedEverythingPublished();
        }
    }

    /**
     * The walk in projection order is an index range scan in xid order: it never reads the table from its start, and
     * never sorts the transaction ids as text (an output column {@code projected_xid::text} keeps the column's name,
     * and ORDER BY resolves output names first).
     */
    @Test
    void theWalkInProjectionOrderIsAnIndexRangeScan() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (var statement = connection.createStatement()) {
                // A test table is small (the planner would read it whole): ask whether the index serves the walk.
                statement.execute("SET LOCAL enable_seqscan = off");
                statement.execute("SET LOCAL enable_bitmapscan = off");
            }
            try (PreparedStatement explain =
                    connection.prepareStatement("EXPLAIN " + JdbcReconciliationReadModel.PAYMENTS_PROJECTED_AFTER)) {
                explain.setString(1, "1");
                explain.setObject(2, Id128.ZERO.toUuid());
                explain.setInt(3, 2_048);
                StringBuilder plan = new StringBuilder();
                try (var rows = explain.executeQuery()) {
                    while (rows.next()) {
                        plan.append(rows.getString(1)).append('\n');
                    }
                }
                // In xid8 order, not in the order of its digits ("10" < "9"), and without a sort: straight off the
                // index.
                assertThat(plan.toString())
                        .contains("Index Scan using payments_by_projection")
                        .contains("Index Cond: ((ROW(projected_xid, payment_id) >")
                        .doesNotContain("Sort");
            }
            connection.rollback();
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Records the ledger requests the reconciliation sends: when, and how many transfer ids each lookup asks. */
    private static final class RecordingLedger extends ForwardingLedger {
        final List<Integer> transferIdsPerLookup = new ArrayList<>();
        final List<Long> sentNanos = new ArrayList<>();

        RecordingLedger(Ledger delegate) {
            super(delegate);
        }

        @Override
        public List<Transfer> lookupTransfers(List<Id128> transfers) {
            sentNanos.add(System.nanoTime());
            transferIdsPerLookup.add(transfers.size());
            return super.lookupTransfers(transfers);
        }

        @Override
        public List<Account> lookupAccounts(List<Id128> accounts) {
            sentNanos.add(System.nanoTime());
            return super.lookupAccounts(accounts);
        }

        @Override
        public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
            sentNanos.add(System.nanoTime());
            return super.queryAccounts(ledger, timestampAfter, limit);
        }
    }

    /** Lets time pass, on purpose (no condition to wait for): every row projected so far is then due. */
    private static void letProjectedRowsFallDue() throws InterruptedException {
        Thread.sleep(SETTINGS.finalWithin().toMillis() * 3);
    }

    private List<Id128> openBank(Participants participants, BankId bank, long firstNumber, int count) {
        participants.registerBank(bank);
        participants.fundReserve(ids.next(), bank, RESERVE_FUNDING);
        List<Long> numbers = new ArrayList<>();
        List<Id128> opened = new ArrayList<>();
        for (long number = firstNumber; number < firstNumber + count; number++) {
            numbers.add(number);
            opened.add(ChartOfAccounts.customer(bank, number));
        }
        participants.openCustomers(bank, numbers);
        for (Id128 customer : opened) {
            participants.fundCustomer(ids.next(), customer, CUSTOMER_FUNDING);
        }
        return opened;
    }

    private static int sameBankNext(int index) {
        int bankStart = index - index % CUSTOMERS_PER_BANK;
        return bankStart + (index + 1) % CUSTOMERS_PER_BANK;
    }

    private void settle(List<Payment> payments) {
        Settlement settlement = new Settlement(reconciliationLedger, PENDING_TIMEOUT_SECONDS);
        assertThat(settlement.reserve(payments)).allMatch(ReservationOutcome.Reserved.class::isInstance);
        assertThat(settlement.post(payments)).allMatch(ResolutionOutcome.Posted.class::isInstance);
    }

    /** Requested and settled events (or, {@code wronglyRejected}, a REJECTED outcome the ledger contradicts). */
    private void publish(List<Payment> payments, boolean wronglyRejected) {
        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            List<PaymentEvent> events = new ArrayList<>();
            for (Payment payment : payments) {
                Payments.Payment view = view(payment);
                events.add(view.requested());
                events.add(wronglyRejected ? view.rejected(RejectionReason.RECEIVING_BANK_REFUSED) : view.settled());
            }
            publisher.publish(events.toArray(PaymentEvent[]::new));
        }
        ClearingProgress.clearedEverythingPublished(bootstrapServers);
    }

    private void publishSettled(Payment payment) {
        publish(List.of(payment), false);
        awaitStatus(payment, "SETTLED");
    }

    private void awaitStatus(Payment payment, String status) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject(
                                "SELECT count(*) FROM reporting.payments WHERE payment_id = ? AND status = ?",
                                Integer.class,
                                payment.id().value().toUuid(),
                                status)
                        == 1);
    }

    private ReconciliationJob job(Ledger ledger, SimpleMeterRegistry meters) {
        return job(ledger, SETTINGS, meters);
    }

    private ReconciliationJob job(Ledger ledger, ReconciliationSettings settings, SimpleMeterRegistry meters) {
        Reconciler reconciler =
                new Reconciler(ledger, new JdbcReconciliationReadModel(jdbc), pipeline, Clock.systemUTC(), settings);
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

    private int finalRows() {
        return jdbc.queryForObject("SELECT count(*) FROM reporting.payments WHERE status <> 'ACCEPTED'", Integer.class);
    }

    /** The event view of a payment, accepted when its id says (a late payment carries its old acceptance). */
    private static Payments.Payment view(Payment payment) {
        Instant acceptedAt = Instant.ofEpochMilli(payment.id().value().hi() >>> 16);
        return new Payments.Payment(
                payment.id().value().toString(),
                payment.payer().toString(),
                payment.payee().toString(),
                payment.amountCentavos(),
                acceptedAt);
    }
}
