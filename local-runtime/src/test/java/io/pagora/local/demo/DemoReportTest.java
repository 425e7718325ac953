package io.pagora.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.NewAccount;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.checks.LedgerAccountSet;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.VoidCause;
import io.pagora.testing.ServerBacked;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo report must not be a rubber stamp: on a real PostgreSQL ledger and a read model that agree it
 * passes, and each kind of disagreement — the read model lying about an outcome, money the read model
 * does not know about, a broken ledger, an accepted payment lost — makes the matching check FAIL.
 */
@ServerBacked
class DemoReportTest {

    private static final BankId BANK_A = new BankId(1001);
    private static final BankId BANK_B = new BankId(1002);
    private static final Id128 ALICE = ChartOfAccounts.customer(BANK_A, 1);
    private static final Id128 ANNA = ChartOfAccounts.customer(BANK_A, 2);
    private static final Id128 BRUNO = ChartOfAccounts.customer(BANK_B, 1);
    private static final long RESERVE_FUNDING = 1_000_000;
    private static final long CUSTOMER_FUNDING = 10_000;

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    @TempDir
    Path dir;

    private HikariDataSource dataSource;
    private PostgresLedger ledger;
    private Settlement settlement;
    private final TimeOrderedIds ids = new TimeOrderedIds();
    private final List<String> acceptedLines = new ArrayList<>();
    /** The outcomes topic: every final state projected was published there first. */
    private final List<byte[]> outcomesTopic = new ArrayList<>();

    private Payment interbankSettled;
    private Payment onUsSettled;
    private Payment insufficientFunds;
    private Payment refusedByBank;

    @BeforeAll
    static void startPostgres() throws Exception {
        server = EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        server.close();
    }

    @BeforeEach
    void consistentRun() throws Exception {
        String database = "demo_" + DATABASES.incrementAndGet();
        try (Connection admin = server.getPostgresDatabase().getConnection();
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.getJdbcUrl("postgres", database));
        config.setUsername("postgres");
        config.setMaximumPoolSize(4);
        dataSource = new HikariDataSource(config);
        ledger = PostgresLedger.migrateAndOpen(dataSource);
        settlement = new Settlement(ledger, 5);
        createReadModel();

        Participants participants = new Participants(ledger);
        assertThat(participants.openCentralBank().isSuccess()).isTrue();
        for (BankId bank : List.of(BANK_A, BANK_B)) {
            participants.registerBank(bank);
            participants.fundReserve(ids.next(), bank, RESERVE_FUNDING);
        }
        sql("INSERT INTO payment_api.banks VALUES (1001), (1002)");
        participants.openCustomers(BANK_A, List.of(1L, 2L));
        participants.openCustomers(BANK_B, List.of(1L));
        for (Id128 customer : List.of(ALICE, ANNA, BRUNO)) {
            participants.fundCustomer(ids.next(), customer, CUSTOMER_FUNDING);
            key(
                    "c" + customer + "@pagora.example",
                    customer,
                    "ispb-" + ChartOfAccounts.bankOf(customer).orElseThrow());
        }
        Files.writeString(
                dir.resolve("accounts.tsv"),
                String.join(
                                "\n",
                                "# kind id amount",
                                "bank\t1001\t" + RESERVE_FUNDING,
                                "bank\t1002\t" + RESERVE_FUNDING,
                                "customer\t" + ALICE + "\t" + CUSTOMER_FUNDING,
                                "customer\t" + ANNA + "\t" + CUSTOMER_FUNDING,
                                "customer\t" + BRUNO + "\t" + CUSTOMER_FUNDING)
                        + "\n");

        interbankSettled = payment(ALICE, BRUNO, 2_500);
        onUsSettled = payment(ALICE, ANNA, 1_000);
        insufficientFunds = payment(ANNA, BRUNO, 999_999);
        refusedByBank = payment(BRUNO, ALICE, 700);

        settle(interbankSettled);
        settle(onUsSettled);
        assertThat(settlement.reserve(List.of(insufficientFunds)).getFirst())
                .isInstanceOf(ReservationOutcome.Refused.class);
        assertThat(settlement.reserve(List.of(refusedByBank)).getFirst())
                .isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(settlement
                        .voidAll(List.of(refusedByBank), VoidCause.RECEIVING_BANK_REFUSED)
                        .getFirst())
                .isInstanceOf(ResolutionOutcome.Voided.class);

        project(interbankSettled, "SETTLED", null);
        project(onUsSettled, "SETTLED", null);
        project(insufficientFunds, "REJECTED", "INSUFFICIENT_FUNDS");
        project(refusedByBank, "REJECTED", "RECEIVING_BANK_REFUSED");
        for (Payment payment : List.of(interbankSettled, onUsSettled, insufficientFunds, refusedByBank)) {
            accept("key-" + payment.id(), payment.id().toString(), false);
        }
        accept("key-" + onUsSettled.id(), onUsSettled.id().toString(), true); // a duplicate re-send
    }

    @AfterEach
    void close() {
        ledger.close();
        dataSource.close();
    }

    @Test
    void theLatencyAndTheDropsShownAreTheJudgedRunsNotTheWarmUps() throws Exception {
        // One k6 run warms up first (k6/lib/scenarios.js WARMUP): its whole-run figures include the warm-up's seconds.
        Path summary = Files.writeString(dir.resolve("k6-summary.json"), """
                {"metrics": {
                  "accept_latency": {"values": {"p(50)": 900.0, "p(95)": 7000.0, "p(99)": 8000.0, "count": 9000}},
                  "accept_latency{scenario:load}": {"values": {"p(50)": 12.5, "p(95)": 40.0, "p(99)": 90.0, "count": 5000}},
                  "dropped_iterations": {"values": {"count": 700}},
                  "dropped_iterations{scenario:load}": {"values": {"count": 3}}
                }}""");

        List<String> lines = DemoReport.acceptLatency(summary);

        assertThat(lines)
                .anyMatch(line -> line.contains("p50     12.5 ms") && line.contains("(n=5000)"))
                .noneMatch(line -> line.contains("900.0"))
                .anyMatch(line -> line.contains("k6 dropped 3 iterations"));
    }

    @Test
    void aKeyPointingToNoCustomerAccountOfItsBankFailsTheDirectoryCheck() throws Exception {
        key("ghost@pagora.example", ChartOfAccounts.customer(BANK_A, 999), "ispb-" + BANK_A);
        key("stolen@pagora.example", ALICE, "ispb-" + BANK_B);

        DemoReport.Result result = report();

        InvariantChecks.Verdict directory = verdicts(result).get("(e)");
        assertThat(directory.name()).startsWith("(e) key directory");
        assertThat(directory.passed()).isFalse();
        assertThat(directory.problems())
                .anyMatch(problem -> problem.startsWith("ghost@pagora.example") && problem.contains("does not hold"))
                .anyMatch(problem -> problem.startsWith("stolen@pagora.example") && problem.contains("registered by"));
        assertThat(result.passed()).isFalse();
    }

    @Test
    void anEmptyDirectoryFailsTheDirectoryCheck() throws Exception {
        sql("DELETE FROM payment_api.directory_keys");

        InvariantChecks.Verdict directory = verdicts(report()).get("(e)");

        assertThat(directory.passed()).isFalse();
        assertThat(directory.problems()).anyMatch(problem -> problem.contains("holds no key"));
    }

    /** A cautionary hold of {@code amount} on {@code account}, as a report's filing takes it. */
    private void hold(Id128 account, long amount) {
        BankId bank = ChartOfAccounts.bankOf(account).orElseThrow();
        assertThat(ledger.createAccounts(List.of(ChartOfAccounts.fraudHoldsAccount(bank)))
                        .getFirst()
                        .isSuccess())
                .isTrue();
        assertThat(ledger.createTransfers(List.of(io.pagora.ledger.port.NewTransfer.pending(
                                ids.next(),
                                account,
                                ChartOfAccounts.fraudHolds(bank),
                                amount,
                                3_600,
                                ChartOfAccounts.LEDGER_BRL,
                                io.pagora.settlement.domain.TransferCode.CAUTIONARY_HOLD,
                                ids.next())))
                        .getFirst()
                        .isSuccess())
                .isTrue();
    }

    private void report(String status, Id128 account, long held) throws SQLException {
        report(status, account, held, null);
    }

    private void report(String status, Id128 account, long held, String refundOutcome) throws SQLException {
        String id = java.util.UUID.randomUUID().toString();
        sql("INSERT INTO payment_api.infraction_reports VALUES ('" + id + "', '" + status
                + "', now() + interval '1 day')");
        sql("INSERT INTO payment_api.infraction_trace VALUES ('" + id + "', 0, '" + account.toUuid() + "', " + held
                + ", " + (refundOutcome == null ? "NULL" : "'" + refundOutcome + "'") + ")");
    }

    @Test
    void heldFundsThatTheirReportsHoldPass() throws Exception {
        hold(ALICE, 700);
        report("OPEN", ALICE, 700);
        report("REFUNDED", ANNA, 300, "RESERVED"); // refunded: holds nothing any more
        hold(BRUNO, 200);
        report("REFUNDED", BRUNO, 200, "INSUFFICIENT_RESERVE"); // a share the ledger refused: its hold stands

        InvariantChecks.Verdict holds = verdicts(report()).get("(f)");

        assertThat(holds.passed()).as("%s", holds).isTrue();
        assertThat(holds.summary()).contains("3 infraction reports; 900 centavos held in 2 fraud holds accounts");
    }

    @Test
    void aHoldNoReportHoldsOrAReportWithoutItsHoldFailsTheHeldFundsCheck() throws Exception {
        hold(ALICE, 700);
        report("REJECTED", ALICE, 700); // released, says the report; the ledger still holds it
        report("ACCEPTED", BRUNO, 200); // held, says the report; the ledger holds nothing

        DemoReport.Result result = report();
        InvariantChecks.Verdict holds = verdicts(result).get("(f)");

        assertThat(holds.passed()).isFalse();
        assertThat(holds.problems())
                .anyMatch(problem -> problem.startsWith("bank 00001001") && problem.contains("holds 700 pending"))
                .anyMatch(problem -> problem.startsWith("bank 00001002") && problem.contains("no fraud holds account"));
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aConsistentRunPassesEveryCheck() throws Exception {
        DemoReport.Result result = report();

        assertThat(result.verdicts())
                .allSatisfy(verdict ->
                        assertThat(verdict.passed()).as(verdict.toString()).isTrue());
        assertThat(result.passed()).isTrue();
        assertThat(result.lines()).anyMatch(line -> line.startsWith("RESULT: PASS"));
        assertThat(result.lines()).anyMatch(line -> line.contains("SETTLED") && line.contains("2"));
    }

    @Test
    void aReadModelThatCallsAVoidedPaymentSettledFails() throws Exception {
        sql("UPDATE reporting.payments SET status = 'SETTLED', reason = NULL WHERE payment_id = '"
                + refusedByBank.id().value().toUuid() + "'");

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(c)").passed()).isFalse();
        assertThat(verdicts.get("(c)").problems())
                .anyMatch(p -> p.contains(refusedByBank.id().toString())
                        && p.contains("SETTLED in the read model but 0 of 3 post legs"));
        assertThat(verdicts.get("(a)").passed()).isTrue();
    }

    @Test
    void aReadModelThatMissedASettlementFails() throws Exception {
        settle(payment(BRUNO, ANNA, 4_000)); // in the ledger, never projected

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(c)").passed()).isFalse();
        assertThat(verdicts.get("(c)").problems())
                .anyMatch(p -> p.contains("ledger balance") && p.contains("difference 4000"));
        assertThat(verdicts.get("(a)").passed()).isTrue();
        assertThat(verdicts.get("(b)").passed()).isTrue();
    }

    @Test
    void aLedgerThatDoesNotSumToZeroFails() throws Exception {
        sql("UPDATE ledger.accounts SET credits_posted = credits_posted + 1 WHERE id = '" + BRUNO.toUuid() + "'");

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(a)").passed()).isFalse();
        assertThat(verdicts.get("(a)").problems()).anyMatch(p -> p.contains("Σ debits_posted") && p.contains("≠"));
    }

    @Test
    void anAccountBelowZeroFails() throws Exception {
        // Balanced on both sides (so the zero-sum still holds), but Anna now owes money.
        sql("ALTER TABLE ledger.accounts DROP CONSTRAINT debits_must_not_exceed_credits");
        sql("UPDATE ledger.accounts SET debits_posted = debits_posted + 50000 WHERE id = '" + ANNA.toUuid() + "'");
        sql("UPDATE ledger.accounts SET credits_posted = credits_posted + 50000 WHERE id = '"
                + ChartOfAccounts.transit(BANK_A).toUuid() + "'");

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(a)").passed()).isTrue();
        assertThat(verdicts.get("(b)").passed()).isFalse();
        assertThat(verdicts.get("(b)").problems())
                .anyMatch(p -> p.contains(ANNA.toString()) && p.contains("below zero"));
    }

    @Test
    void anAccountTheDemoCreatedButTheLedgerLacksFails() throws Exception {
        Files.writeString(
                dir.resolve("accounts.tsv"),
                "customer\t" + ChartOfAccounts.customer(BANK_B, 99) + "\t0\n",
                java.nio.file.StandardOpenOption.APPEND);

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(a)").passed()).isFalse();
        assertThat(verdicts.get("(a)").problems()).anyMatch(p -> p.contains("is not in the ledger"));
    }

    @Test
    void anAcceptedPaymentLostOrNotFinalOrAnsweredTwiceFails() throws Exception {
        Payment lost = payment(ALICE, BRUNO, 10);
        accept("key-lost", lost.id().toString(), false);
        Payment stuck = payment(ANNA, ALICE, 10);
        project(stuck, "ACCEPTED", null);
        accept("key-stuck", stuck.id().toString(), false);
        accept("key-" + interbankSettled.id(), onUsSettled.id().toString(), true); // a re-send answered with another id

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        InvariantChecks.Verdict d = verdicts.get("(d)");
        assertThat(d.passed()).isFalse();
        assertThat(d.problems()).anyMatch(p -> p.contains(lost.id().toString()) && p.contains("not in the read model"));
        assertThat(d.problems()).anyMatch(p -> p.contains(stuck.id().toString()) && p.contains("no final state"));
        assertThat(d.problems()).anyMatch(p -> p.contains("got two payment ids"));
    }

    @Test
    void aPaymentNobodyWasToldAboutFails() throws Exception {
        Payment phantom = payment(ALICE, ANNA, 10);
        assertThat(settlement.reserve(List.of(phantom)).getFirst()).isInstanceOf(ReservationOutcome.Reserved.class);
        settlement.voidAll(List.of(phantom), VoidCause.RECEIVING_BANK_REFUSED);
        project(phantom, "REJECTED", "RECEIVING_BANK_REFUSED");

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(d)").passed()).isFalse();
        assertThat(verdicts.get("(d)").problems()).anyMatch(p -> p.contains("never acknowledged"));
        assertThat(verdicts.get("(c)").passed()).isTrue();
    }

    @Test
    void verifyOnAConsistentRunningPlatformPassesEveryCheck() throws Exception {
        DemoReport.Result result = verify(Duration.ZERO);

        assertThat(result.passed()).as("%s", result.lines()).isTrue();
        assertThat(result.lines())
                .anyMatch(line -> line.startsWith("consistent cut:") && line.contains("all 8 accounts judged"));
    }

    @Test
    void verifyCountsAPaymentAcceptedMomentsAgoAsInFlightButFailsAnOlderOneThatIsNotFinal() throws Exception {
        Payment young = payment(ALICE, BRUNO, 10);
        project(young, "ACCEPTED", null);
        accept("key-young", young.id().toString(), false);
        Payment youngNotProjectedYet = payment(ANNA, BRUNO, 10);
        accept("key-young-2", youngNotProjectedYet.id().toString(), false);
        Clock tenMinutesAgo = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10));
        Payment old = new Payment(new TimeOrderedIds(tenMinutesAgo).nextPaymentId(), BRUNO, ALICE, 10);
        project(old, "ACCEPTED", null); // sent by another client than the load generator: not in its log

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(verify(Duration.ZERO));

        InvariantChecks.Verdict d = verdicts.get("(d)");
        assertThat(d.passed()).isFalse();
        assertThat(d.summary()).contains("2 accepted less than 60 s ago and not final yet: in flight");
        assertThat(d.problems())
                .anySatisfy(p ->
                        assertThat(p).contains(old.id().toString(), "no final state", "after its pending timeout"));
        assertThat(d.problems())
                .noneMatch(p -> p.contains(young.id().toString())
                        || p.contains(youngNotProjectedYet.id().toString()));
        assertThat(verdicts.get("(c)").passed()).isTrue();
    }

    @Test
    void verifyJudgesAtTheCutASettlementPostedAfterItsLedgerReadButFailsItOnceTheLedgerReadHoldsIt() throws Exception {
        Payment settlingDuringVerify = payment(BRUNO, ANNA, 4_000); // in the ledger, not projected yet
        Thread settler = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(300); // time passes: the settlement lands after verify's ledger read began
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            settle(settlingDuringVerify);
        });

        DemoReport.Result result = verify(Duration.ofSeconds(2));
        settler.join();

        assertThat(result.passed()).as("%s", result.lines()).isTrue();
        assertThat(result.lines()).anyMatch(line -> line.startsWith("consistent cut:"));
        // Once the platform holds still, the same unprojected settlement is a failure (the read model missed it).
        assertThat(verdicts(verify(Duration.ZERO)).get("(c)").passed()).isFalse();
    }

    @Test
    void verifyFailsOnAPlantedMismatch() throws Exception {
        sql("UPDATE reporting.payments SET status = 'SETTLED', reason = NULL WHERE payment_id = '"
                + refusedByBank.id().value().toUuid() + "'");

        DemoReport.Result result = verify(Duration.ZERO);

        assertThat(result.passed()).isFalse();
        assertThat(verdicts(result).get("(c)").problems())
                .anyMatch(p -> p.contains(refusedByBank.id().toString()));
        assertThat(result.lines()).anyMatch(line -> line.startsWith("RESULT: FAIL (1 of 6"));
    }

    @Test
    void verifyAndTheReportPassAfterASettledPaymentIsPartlyReturned() throws Exception {
        Payment partReturn = returnOf(interbankSettled, 1_000);
        settle(partReturn);
        projectReturn(partReturn, partReturn.amountCentavos());

        for (DemoReport.Result result : List.of(verify(Duration.ZERO), report())) {
            assertThat(result.verdicts())
                    .allSatisfy(verdict ->
                            assertThat(verdict.passed()).as(verdict.toString()).isTrue());
            assertThat(result.passed()).isTrue();
        }
    }

    @Test
    void verifyAndTheReportFailAReturnTheReadModelMisstates() throws Exception {
        Payment partReturn = returnOf(interbankSettled, 1_000);
        settle(partReturn);
        projectReturn(partReturn, 900); // the ledger moved 1,000 centavos back

        for (DemoReport.Result result : List.of(verify(Duration.ZERO), report())) {
            InvariantChecks.Verdict c = verdicts(result).get("(c)");
            assertThat(c.passed()).as(c.toString()).isFalse();
            assertThat(c.problems())
                    .anyMatch(p -> p.contains(partReturn.id().toString()))
                    .noneMatch(p -> p.contains("not among the accounts checked"));
        }
    }

    @Test
    void aPaymentPublishedTwoDifferentFinalStatesFailsVerifyAndTheReport() throws Exception {
        publish(interbankSettled, "REJECTED", "RECEIVING_BANK_REFUSED"); // the read model keeps the first: SETTLED

        for (DemoReport.Result result : List.of(verify(Duration.ZERO), report())) {
            InvariantChecks.Verdict d = verdicts(result).get("(d)");
            assertThat(d.passed()).isFalse();
            assertThat(d.problems())
                    .anySatisfy(p -> assertThat(p)
                            .contains(
                                    interbankSettled.id().toString(),
                                    "two final states on the outcomes topic",
                                    "REJECTED",
                                    "SETTLED"));
        }
    }

    @Test
    void aFinalPaymentWhoseOutcomeTheTopicLacksFails() throws Exception {
        outcomesTopic.clear(); // e.g. the topic read from another broker: the check saw nothing

        InvariantChecks.Verdict d = verdicts(verify(Duration.ZERO)).get("(d)");

        assertThat(d.passed()).isFalse();
        assertThat(d.problems()).anyMatch(p -> p.contains("no outcome on the outcomes topic"));
    }

    @Test
    void verifyPassesAfterTheReadmesWalkThroughRegistersFundsOpensAndPays() throws Exception {
        // As the README's curl walk-through does: the operator registers a bank and funds its reserve, the bank opens
        // two customers, funds one, and pays from it; none of it is in the accounts file.
        BankId bankC = new BankId(1003);
        Participants participants = new Participants(ledger);
        participants.registerBank(bankC);
        participants.fundReserve(ids.next(), bankC, 100_000_000);
        participants.fundReserve(ids.next(), BANK_A, 5_000); // a seeded bank's reserve funded again
        sql("INSERT INTO payment_api.banks VALUES (1003)");
        Id128 carla = ChartOfAccounts.customer(bankC, 1);
        Id128 cesar = ChartOfAccounts.customer(bankC, 1001);
        participants.openCustomers(bankC, List.of(1L, 1001L));
        participants.fundCustomer(ids.next(), carla, 500_000);
        participants.fundCustomer(ids.next(), ALICE, 1_000); // a seeded customer funded again
        for (Payment payment : List.of(payment(carla, BRUNO, 12_345), payment(carla, cesar, 100))) {
            settle(payment);
            project(payment, "SETTLED", null);
        }

        DemoReport.Result result = verify(Duration.ZERO);

        assertThat(result.passed()).as("%s", result.lines()).isTrue();
        assertThat(result.lines())
                .anyMatch(line -> line.contains("3 banks (2 seeded")
                        && line.contains("5 customers (3 seeded")
                        && line.contains("100005000 centavos to reserves, 501000 to customers"));
    }

    @Test
    void verifyJudgesACustomerOpenedAndFundedSinceSeedingThatNoPaymentNames() throws Exception {
        // Opened and funded through payment-api after seeding, as the README's walk-through does, and never in a
        // payment: neither the accounts file nor the read model names it, the ledger's own account set does.
        Id128 dora = openAndFundSinceSeeding(BANK_B, 7, 30_000);

        DemoReport.Result result = verify(Duration.ZERO);

        assertThat(result.passed()).as("%s", result.lines()).isTrue();
        assertThat(result.lines())
                .anyMatch(line -> line.contains("4 customers (3 seeded")
                        && line.contains("0 centavos to reserves, 30000 to customers"));
        assertThat(result.lines())
                .anyMatch(line -> line.startsWith("consistent cut:") && line.contains("all 9 accounts judged"));
        assertThat(verdicts(result).get("(a)").summary()).contains("4 customers", "9 accounts on ledger 986");
        assertThat(dora).isNotNull();
    }

    @Test
    void verifyFailsOnMoneyTakenFromACustomerThatNoPaymentNames() throws Exception {
        Id128 dora = openAndFundSinceSeeding(BANK_B, 7, 30_000);
        // 700 centavos leave Dora for her bank's transit with no payment: the books still sum to zero.
        sql("UPDATE ledger.accounts SET debits_posted = debits_posted + 700 WHERE id = '" + dora.toUuid() + "'");
        sql("UPDATE ledger.accounts SET credits_posted = credits_posted + 700 WHERE id = '"
                + ChartOfAccounts.transit(BANK_B).toUuid() + "'");

        DemoReport.Result result = verify(Duration.ZERO);

        assertThat(result.passed()).isFalse();
        assertThat(verdicts(result).get("(a)").passed()).isTrue();
        assertThat(verdicts(result).get("(c)").problems())
                .anySatisfy(p -> assertThat(p).contains("customer " + dora, "difference -700"));
    }

    @Test
    void theReportJudgesAnAccountTheLedgerHoldsButTheAccountsFileLacks() throws Exception {
        // The demo seeded every account it reports on: money on any other is unexplained.
        Id128 dora = openAndFundSinceSeeding(BANK_B, 7, 30_000);

        Map<String, InvariantChecks.Verdict> verdicts = verdicts(report());

        assertThat(verdicts.get("(a)").passed()).as("%s", verdicts.get("(a)")).isTrue();
        assertThat(verdicts.get("(c)").passed()).isFalse();
        assertThat(verdicts.get("(c)").problems())
                .anySatisfy(p -> assertThat(p).contains("customer " + dora, "difference 30000"));
    }

    @Test
    void moneyOnALedgerAccountOutsideTheChartOfAccountsFailsVerifyAndTheReport() throws Exception {
        // An account no bank, customer or file names; 500 centavos issued to it by the central bank.
        Id128 stray = new Id128(0x7700_0000_0000_0001L, 1);
        assertThat(ledger.createAccounts(
                        List.of(NewAccount.of(stray, ChartOfAccounts.LEDGER_BRL, 77, AccountFlags.NONE))))
                .allSatisfy(result -> assertThat(result.isSuccess()).isTrue());
        sql("UPDATE ledger.accounts SET credits_posted = credits_posted + 500 WHERE id = '" + stray.toUuid() + "'");
        sql("UPDATE ledger.accounts SET debits_posted = debits_posted + 500 WHERE id = '"
                + ChartOfAccounts.centralBank().toUuid() + "'");

        for (DemoReport.Result result : List.of(verify(Duration.ZERO), report())) {
            Map<String, InvariantChecks.Verdict> verdicts = verdicts(result);
            assertThat(verdicts.get("(a)").passed())
                    .as("%s", verdicts.get("(a)"))
                    .isTrue();
            assertThat(verdicts.get("(a)").summary()).contains("1 other accounts");
            assertThat(verdicts.get("(c)").problems())
                    .anySatisfy(p -> assertThat(p).contains("account " + stray, "difference 500"));
        }
    }

    @Test
    void verifyWalksTheLedgersAccountSetUpToItsPageBoundAndFailsLoudlyPastIt() throws Exception {
        // 8 accounts: central bank, 2 × (reserve, transit), 3 customers.
        assertThat(verify(Duration.ZERO, new LedgerAccountSet.Bound(3, 3)).passed())
                .isTrue(); // 3 + 3 + 2
        DemoReport.Result exactlyFull = verify(Duration.ZERO, new LedgerAccountSet.Bound(4, 2)); // 4 + 4, nothing after
        assertThat(exactlyFull.passed()).as("%s", exactlyFull.lines()).isTrue();
        assertThat(verdicts(exactlyFull).get("(a)").summary()).contains("8 accounts on ledger 986 in 2 pages");

        DemoReport.Result pastTheBound = verify(Duration.ZERO, new LedgerAccountSet.Bound(3, 2)); // 6 read, 2 more

        assertThat(pastTheBound.passed()).isFalse();
        assertThat(verdicts(pastTheBound).get("(a)").problems())
                .anySatisfy(p -> assertThat(p).contains("more accounts than", "2 pages of 3", "not judged"));
    }

    @Test
    void verifyJudgesEveryBanksBalanceWhilePaymentsSettle() throws Exception {
        try (Payer payer = new Payer()) {
            DemoReport.Result result = verify(Duration.ofSeconds(1));

            assertThat(result.passed()).as("%s", result.lines()).isTrue();
            assertThat(result.lines())
                    .anyMatch(line -> line.startsWith("consistent cut:") && line.contains("all 8 accounts judged"));
            assertThat(payer.settled()).as("payments settled while verify read").isPositive();
        }
    }

    @Test
    void verifyFindsAReserveThatDisagreesWhilePaymentsSettle() throws Exception {
        // Money moved between two reserves with no payment, while both move with every payment.
        sql("UPDATE ledger.accounts SET debits_posted = debits_posted + 7 WHERE id = '"
                + ChartOfAccounts.reserve(BANK_A).toUuid() + "'");
        sql("UPDATE ledger.accounts SET credits_posted = credits_posted + 7 WHERE id = '"
                + ChartOfAccounts.reserve(BANK_B).toUuid() + "'");
        try (Payer payer = new Payer()) {
            DemoReport.Result result = verify(Duration.ofSeconds(1));

            assertThat(result.passed()).isFalse();
            assertThat(verdicts(result).get("(c)").problems()).anyMatch(p -> p.contains("reserve of bank"));
            assertThat(payer.settled()).isPositive();
        }
    }

    /** Settles and projects a small payment every few milliseconds until closed, as a platform under load does. */
    private final class Payer implements AutoCloseable {

        private final TimeOrderedIds payerIds = new TimeOrderedIds();
        private final java.util.concurrent.atomic.AtomicBoolean running =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        private final AtomicInteger settled = new AtomicInteger();
        private final Thread thread = Thread.ofPlatform().start(this::run);

        private void run() {
            List<Id128[]> routes =
                    List.of(new Id128[] {ALICE, BRUNO}, new Id128[] {BRUNO, ANNA}, new Id128[] {ANNA, ALICE});
            for (int i = 0; running.get() && i < 100_000; i++) {
                Id128[] route = routes.get(i % routes.size());
                Payment payment = new Payment(payerIds.nextPaymentId(), route[0], route[1], 10);
                settle(payment);
                try {
                    project(payment, "SETTLED", null);
                    Thread.sleep(5); // paces the payments, as a steady load would
                } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                settled.incrementAndGet();
            }
        }

        int settled() {
            return settled.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }

    private DemoReport.Result verify(Duration quiet) throws Exception {
        return verify(quiet, LedgerAccountSet.Bound.DEFAULT);
    }

    private DemoReport.Result verify(Duration quiet, LedgerAccountSet.Bound accountWalk) throws Exception {
        Files.write(dir.resolve("k6.log"), acceptedLines);
        DemoReport.Result result = Verify.run(
                new Verify.Inputs(
                        dir.resolve("accounts.tsv"),
                        List.of(dir.resolve("k6.log")),
                        "reporting",
                        "payment_api",
                        Duration.ofSeconds(60),
                        quiet,
                        accountWalk),
                dataSource,
                ledger,
                Clock.systemUTC(),
                this::outcomes);
        result.lines().forEach(System.out::println);
        return result;
    }

    private DemoReport.Result report() throws Exception {
        Files.write(dir.resolve("k6.log"), acceptedLines);
        DemoReport.Result result = DemoReport.run(
                new DemoReport.Inputs(dir.resolve("accounts.tsv"), List.of(dir.resolve("k6.log")), null, "reporting"),
                dataSource,
                ledger,
                this::outcomes);
        result.lines().forEach(System.out::println);
        return result;
    }

    /** A customer opened and funded after seeding, in no accounts file, named by no payment. */
    private Id128 openAndFundSinceSeeding(BankId bank, long accountNumber, long amount) {
        Participants participants = new Participants(ledger);
        participants.openCustomers(bank, List.of(accountNumber));
        Id128 customer = ChartOfAccounts.customer(bank, accountNumber);
        participants.fundCustomer(ids.next(), customer, amount);
        return customer;
    }

    private static Map<String, InvariantChecks.Verdict> verdicts(DemoReport.Result result) {
        return result.verdicts().stream().collect(Collectors.toMap(v -> v.name().substring(0, 3), Function.identity()));
    }

    private Payment payment(Id128 payer, Id128 payee, long amount) {
        return new Payment(ids.nextPaymentId(), payer, payee, amount);
    }

    /** A return of {@code amount} of {@code original}, from its payee back to its payer (reason BE08, number 1). */
    private Payment returnOf(Payment original, long amount) {
        return new Payment(
                ids.nextPaymentId(),
                original.payee(),
                original.payer(),
                amount,
                0,
                new Payment.ReturnOf(original.id(), original.amountCentavos(), ReturnReason.BE08.number));
    }

    /** A settled return as the read model holds it, claiming {@code amount}, and its outcome on the topic. */
    private void projectReturn(Payment payment, long amount) throws SQLException {
        Payment claimed = new Payment(payment.id(), payment.payer(), payment.payee(), amount);
        project(claimed, "SETTLED", null);
        sql("UPDATE reporting.payments SET return_of = '"
                + payment.returnOf().original().value().toUuid()
                + "', return_reason = '" + ReturnReason.BE08.name() + "' WHERE payment_id = '"
                + payment.id().value().toUuid() + "'");
    }

    private void settle(Payment payment) {
        assertThat(settlement.reserve(List.of(payment)).getFirst()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(settlement.post(List.of(payment)).getFirst()).isInstanceOf(ResolutionOutcome.Posted.class);
    }

    private void accept(String key, String paymentId, boolean duplicate) {
        acceptedLines.add("ACCEPTED\t" + key + "\t" + paymentId + "\t202\t" + (duplicate ? "dup" : "first"));
    }

    private void createReadModel() throws SQLException {
        // The columns DemoReport reads, as reporting-service's migrations define them (V1, and V6's return link).
        sql("CREATE SCHEMA reporting");
        sql("CREATE SCHEMA payment_api");
        sql("CREATE TABLE payment_api.banks (ispb integer PRIMARY KEY)");
        // The columns the directory check reads, as payment-api's V8 defines them.
        sql("CREATE TABLE payment_api.directory_keys (key_value text PRIMARY KEY, account_id uuid NOT NULL,"
                + " participant text NOT NULL)");
        // The columns the held funds check reads, as payment-api's V11 and V12 define them.
        sql("CREATE TABLE payment_api.infraction_reports (report_id uuid PRIMARY KEY, status text NOT NULL,"
                + " hold_until timestamptz NOT NULL)");
        sql("CREATE TABLE payment_api.infraction_trace (report_id uuid NOT NULL, position smallint NOT NULL,"
                + " account_id uuid NOT NULL, held_centavos bigint NOT NULL, refund_outcome text,"
                + " PRIMARY KEY (report_id, position))");
        sql("""
                CREATE TABLE reporting.payments (
                    payment_id uuid PRIMARY KEY, payer_account_id uuid NOT NULL, payee_account_id uuid NOT NULL,
                    amount_centavos bigint NOT NULL, accepted_at timestamptz NOT NULL, status text NOT NULL,
                    reason text, final_at timestamptz, return_of uuid, return_reason text)""");
    }

    private void project(Payment payment, String status, String reason) throws SQLException {
        Instant acceptedAt = Instant.ofEpochMilli(payment.id().epochMillis());
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO reporting.payments (payment_id, payer_account_id, payee_account_id, amount_centavos,"
                                + " accepted_at, status, reason, final_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setObject(1, payment.id().value().toUuid());
            insert.setObject(2, payment.payer().toUuid());
            insert.setObject(3, payment.payee().toUuid());
            insert.setLong(4, payment.amountCentavos());
            insert.setTimestamp(5, Timestamp.from(acceptedAt));
            insert.setString(6, status);
            insert.setString(7, reason);
            insert.setTimestamp(8, "ACCEPTED".equals(status) ? null : Timestamp.from(acceptedAt.plusMillis(40)));
            insert.executeUpdate();
        }
        if (!"ACCEPTED".equals(status)) {
            publish(payment, status, reason);
        }
    }

    private OutcomeLog outcomes() {
        synchronized (outcomesTopic) {
            return OutcomeLog.of(List.copyOf(outcomesTopic));
        }
    }

    private void publish(Payment payment, String status, String reason) {
        String id = payment.id().toString();
        String payer = payment.payer().toString();
        String payee = payment.payee().toString();
        Instant acceptedAt = Instant.ofEpochMilli(payment.id().epochMillis());
        Instant at = acceptedAt.plusMillis(40);
        synchronized (outcomesTopic) {
            outcomesTopic.add(PaymentEventCodec.encode(
                    switch (status) {
                        case "SETTLED" ->
                            new PaymentSettled(id, payer, payee, payment.amountCentavos(), acceptedAt, at);
                        case "EXPIRED" ->
                            new PaymentExpired(id, payer, payee, payment.amountCentavos(), acceptedAt, at);
                        default ->
                            new PaymentRejected(
                                    id,
                                    payer,
                                    payee,
                                    payment.amountCentavos(),
                                    RejectionReason.valueOf(reason),
                                    "test",
                                    acceptedAt,
                                    at);
                    }));
        }
    }

    private void key(String key, Id128 account, String participant) throws Exception {
        sql("INSERT INTO payment_api.directory_keys VALUES ('" + key + "', '" + account.toUuid() + "', '" + participant
                + "')");
    }

    private void sql(String statement) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }
}
