package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * MED infraction reports over HTTPS against payment-api on real PostgreSQL and Kafka and the PostgreSQL ledger: the
 * payer's bank reports a settled payment, the money is traced two hops and held where it is; the banks read the
 * report and their notices; the payee's bank rejects it (the holds are released) or accepts it (they stay); a report
 * nobody analyses is escalated to the operator. Every refusal is specific and moves nothing; the money invariants
 * hold at the end. (The contract of the trace and the holds themselves, on every ledger: SettlementContract.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestPropertySource(properties = {"pagora.med.analysis-period=8s", "pagora.med.escalation-interval=300ms"})
class InfractionReportsTest extends PaymentApiIntegrationTest {

    static final int VICTIMS = 71;
    static final int FRAUDSTERS = 72;
    static final int MULES = 73;
    static final int OUTSIDER = 74;
    static final Pattern MESSAGE = Pattern.compile("\\{\"type\":\"(InfractionReportNotice|CautionaryHold)\"[^}]*}");
    static final Duration WAIT = Duration.ofSeconds(20);

    final TimeOrderedIds ids = new TimeOrderedIds();
    Participants participants;
    Settlement settlement;
    final Set<Id128> accounts = new HashSet<>();

    @BeforeAll
    void banks() {
        participants = new Participants(port);
        settlement = new Settlement(ledger, 60);
        for (int ispb : List.of(VICTIMS, FRAUDSTERS, MULES, OUTSIDER)) {
            participants.registerBank(ispb, "Banco " + ispb);
            participants.fundReserve(ispb, 1_000_000);
            accounts.add(ChartOfAccounts.fraudHolds(new BankId(ispb)));
        }
    }

    /** Victim → f1 (1,000); f1 → f2 (600, another bank); f2 → f3 (300, back at f1's bank): f1, f2, f3 keep 400, 300, 300. */
    private record Scam(Payment fraud, Id128 f1, Id128 f2, Id128 f3) {}

    private Scam scam() {
        Id128 victim = customer(VICTIMS, 5_000);
        Id128 f1 = customer(FRAUDSTERS, 0);
        Id128 f2 = customer(MULES, 0);
        Id128 f3 = customer(FRAUDSTERS, 0);
        Payment fraud = settled(victim, f1, 1_000);
        settled(f1, f2, 600);
        settled(f2, f3, 300);
        return new Scam(fraud, f1, f2, f3);
    }

    @Test
    void aReportTracesAndHoldsTheMoneyAndARejectionReleasesIt() {
        Scam scam = scam();
        Http victims = participants.bank(VICTIMS);
        Http fraudsters = participants.bank(FRAUDSTERS);
        String key = "report-" + UUID.randomUUID();

        Http.Response filed = file(victims, scam.fraud(), "FRAUD", key);
        assertThat(filed.status()).as("%s", filed).isEqualTo(201);
        JsonNode report = filed.json();
        String reportId = report.path("reportId").asString();
        assertThat(report.path("status").asString()).isEqualTo("OPEN");
        assertThat(report.path("heldCentavos").asLong())
                .as("all of it, two hops on")
                .isEqualTo(1_000);
        assertThat(heldBy(report))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        scam.f1().toString(),
                        400L,
                        scam.f2().toString(),
                        300L,
                        scam.f3().toString(),
                        300L));
        assertThat(available(scam.f1())).as("held: not spendable").isZero();
        assertThat(victims.get("/infraction-reports/" + reportId).json())
                .as("the report answered is the report stored")
                .isEqualTo(report);

        Http.Response replay = file(victims, scam.fraud(), "FRAUD", key);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json().path("reportId").asString()).isEqualTo(reportId);
        assertThat(file(victims, scam.fraud(), "FRAUD", "another-" + key).problemType())
                .isEqualTo("payment-already-reported");
        assertThat(file(fraudsters, scam.fraud(), "FRAUD", "b-" + key).problemType())
                .as("not the payer's bank: as if there were no such payment")
                .isEqualTo("unknown-payment");
        assertThat(available(scam.f1())).as("nothing held twice").isZero();

        assertThat(fraudsters.get("/infraction-reports/" + reportId).status()).isEqualTo(200);
        assertThat(participants
                        .bank(OUTSIDER)
                        .get("/infraction-reports/" + reportId)
                        .problemType())
                .isEqualTo("report-not-found");
        assertThat(analyse(victims, reportId, "{\"decision\":\"REJECT\",\"reason\":\"no\"}")
                        .problemType())
                .isEqualTo("not-the-analysing-bank");
        assertThat(analyse(fraudsters, reportId, "{\"decision\":\"REJECT\"}").problemType())
                .isEqualTo("missing-field");
        Http.Response rejected =
                analyse(fraudsters, reportId, "{\"decision\":\"REJECT\",\"reason\":\"the customer sold a car\"}");
        assertThat(rejected.status()).as("%s", rejected).isEqualTo(200);
        assertThat(rejected.json().path("status").asString()).isEqualTo("REJECTED");
        assertThat(available(scam.f1())).as("released").isEqualTo(400);
        assertThat(available(scam.f2())).isEqualTo(300);
        assertThat(analyse(fraudsters, reportId, "{\"decision\":\"REJECT\",\"reason\":\"again\"}")
                        .status())
                .as("the same decision again")
                .isEqualTo(200);
        assertThat(analyse(fraudsters, reportId, "{\"decision\":\"ACCEPT\"}").problemType())
                .isEqualTo("report-already-decided");
        assertThat(messages(victims, VICTIMS, 1, reportId).getFirst())
                .contains("\"role\":\"PAYER\"", "\"status\":\"REJECTED\"", "the customer sold a car");
        // The payee's bank was told of the report and of the holds on its customers, then of their release.
        List<String> toFraudsters = messages(fraudsters, FRAUDSTERS, 6, reportId);
        assertThat(toFraudsters)
                .anySatisfy(m -> assertThat(m).contains("\"type\":\"InfractionReportNotice\"", "\"status\":\"OPEN\""))
                .anySatisfy(m -> assertThat(m).contains("\"accountId\":\"" + scam.f1() + "\"", "\"heldCentavos\":400"))
                .anySatisfy(m -> assertThat(m).contains("\"accountId\":\"" + scam.f3() + "\"", "\"status\":\"HELD\""))
                .anySatisfy(
                        m -> assertThat(m).contains("\"accountId\":\"" + scam.f3() + "\"", "\"status\":\"RELEASED\""));
        assertThat(messages(participants.bank(MULES), MULES, 2, reportId))
                .anySatisfy(m ->
                        assertThat(m).contains("\"type\":\"CautionaryHold\"", "\"heldCentavos\":300", "\"hop\":1"));
        assertThat(ledger.lookupAccounts(List.of(scam.f1(), scam.f2(), scam.f3())))
                .as("nothing held any more")
                .allSatisfy(account -> assertThat(account.debitsPending()).isZero());
        MoneyInvariants.check(ledger, everyAccount(), "after the rejection");
    }

    @Test
    void anAcceptedReportKeepsItsHoldsAndAnUnanalysedOneIsEscalatedToTheOperator() throws InterruptedException {
        Scam accepted = scam();
        Scam ignored = scam();
        Http victims = participants.bank(VICTIMS);
        Http fraudsters = participants.bank(FRAUDSTERS);
        String acceptedId = file(victims, accepted.fraud(), "COERCION", "a-" + UUID.randomUUID())
                .json()
                .path("reportId")
                .asString();
        String ignoredId = file(victims, ignored.fraud(), "FRAUD", "i-" + UUID.randomUUID())
                .json()
                .path("reportId")
                .asString();
        Http.Response accept = analyse(fraudsters, acceptedId, "{\"decision\":\"ACCEPT\"}");
        assertThat(accept.json().path("status").asString()).as("%s", accept).isEqualTo("ACCEPTED");
        assertThat(available(accepted.f1())).as("held for the refund").isZero();

        long deadline = System.nanoTime() + WAIT.toNanos();
        String status = "";
        while (System.nanoTime() < deadline && !status.equals("ESCALATED")) {
            Thread.sleep(200);
            status = victims.json("/infraction-reports/" + ignoredId)
                    .path("status")
                    .asString();
        }
        assertThat(status).as("past its 8 s deadline").isEqualTo("ESCALATED");
        assertThat(analyse(fraudsters, ignoredId, "{\"decision\":\"ACCEPT\"}").problemType())
                .as("too late for the payee's bank")
                .isEqualTo("not-the-analysing-bank");
        Http.Response byOperator =
                analyse(participants.operator(), ignoredId, "{\"decision\":\"REJECT\",\"reason\":\"no evidence\"}");
        assertThat(byOperator.json().path("status").asString())
                .as("%s", byOperator)
                .isEqualTo("REJECTED");
        assertThat(available(ignored.f3())).isEqualTo(300);
        MoneyInvariants.check(ledger, everyAccount(), "accepted and escalated");
    }

    @Test
    void anAcceptedReportIsRefundedFromItsHoldsOnceThroughTheReturnsFlow() {
        Scam scam = scam();
        Scam open = scam();
        Http victims = participants.bank(VICTIMS);
        Http fraudsters = participants.bank(FRAUDSTERS);
        String reportId = file(victims, scam.fraud(), "FRAUD", "r-" + UUID.randomUUID())
                .json()
                .path("reportId")
                .asString();
        String openId = file(victims, open.fraud(), "FRAUD", "o-" + UUID.randomUUID())
                .json()
                .path("reportId")
                .asString();
        assertThat(refund(victims, reportId, "{}").problemType())
                .as("open, not accepted")
                .isEqualTo("report-not-accepted");
        Http.Response accepted = analyse(fraudsters, reportId, "{\"decision\":\"ACCEPT\"}");
        assertThat(accepted.status()).isEqualTo(200);
        assertThat(fraudsters.get("/infraction-reports/" + reportId).json())
                .as("the decision answered is the decision stored (decidedAt as PostgreSQL keeps it)")
                .isEqualTo(accepted.json());
        assertThat(refund(fraudsters, reportId, "{}").problemType()).isEqualTo("not-the-reporting-bank");
        assertThat(refund(participants.bank(OUTSIDER), reportId, "{}").problemType())
                .isEqualTo("report-not-found");
        Http.Response over = refund(victims, reportId, "{\"amountCentavos\":1001}");
        assertThat(over.problemType()).isEqualTo("refund-exceeds-held");
        assertThat(over.json().path("heldCentavos").asLong()).isEqualTo(1_000);
        assertThat(refund(victims, reportId, "{\"amountCentavos\":0}").status()).isEqualTo(400);
        assertThat(available(scam.f1()) + available(scam.f2()) + available(scam.f3()))
                .as("the refusals moved nothing")
                .isZero();

        long victimBefore =
                ledger.lookupAccounts(List.of(scam.fraud().payer())).getFirst().creditBalancePosted();
        List<RequestedEvents.Event> published;
        Http.Response refunded;
        try (RequestedEvents requested = new RequestedEvents(kafkaBootstrapServers())) {
            var mark = requested.mark();
            refunded = refund(victims, reportId, "{\"amountCentavos\":700}");
            assertThat(refunded.status()).as("%s", refunded).isEqualTo(200);
            published = requested.since(mark);
        }
        JsonNode report = refunded.json();
        assertThat(report.path("status").asString()).isEqualTo("REFUNDED");
        assertThat(victims.get("/infraction-reports/" + reportId).json())
                .as("the report answered is the report stored")
                .isEqualTo(report);
        assertThat(report.path("refundCentavos").asLong()).isEqualTo(700);
        List<Payment> refunds = new ArrayList<>();
        for (JsonNode node : report.path("trace")) {
            if (node.path("refundPaymentId").isNull()) {
                continue;
            }
            assertThat(node.path("refundOutcome").asString()).isEqualTo("RESERVED");
            refunds.add(new Payment(
                    io.pagora.settlement.domain.PaymentId.parse(
                            node.path("refundPaymentId").asString()),
                    Id128.parse(node.path("accountId").asString()),
                    scam.fraud().payer(),
                    node.path("refundCentavos").asLong(),
                    0,
                    new Payment.ReturnOf(scam.fraud().id(), 1_000, 2)));
        }
        assertThat(refunds)
                .extracting(Payment::payer, Payment::amountCentavos)
                .as("in trace order: all f1 holds, then 300 of f2")
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(scam.f1(), 400L),
                        org.assertj.core.groups.Tuple.tuple(scam.f2(), 300L));
        assertThat(published)
                .as("handed to clearing as returns, FR01")
                .extracting(
                        event -> event.payment().paymentId(),
                        event -> event.payment().returnOf().reason())
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(refunds.get(0).id().toString(), ReturnReason.FR01),
                        org.assertj.core.groups.Tuple.tuple(refunds.get(1).id().toString(), ReturnReason.FR01));
        assertThat(available(scam.f3())).as("the rest released").isEqualTo(300);
        assertThat(available(scam.f1()))
                .as("the refund pending where the hold was")
                .isZero();

        assertThat(refund(victims, reportId, "{}").json().path("status").asString())
                .as("asked again: the same refund")
                .isEqualTo("REFUNDED");
        assertThat(refund(victims, reportId, "{\"amountCentavos\":500}").problemType())
                .isEqualTo("refund-already-requested");
        // Clearing's part, as it does it: the refunds are found reserved, the victim's bank accepts, they post.
        assertThat(settlement.reserve(refunds)).containsOnly(new ReservationOutcome.Reserved(true));
        assertThat(settlement.post(refunds)).containsOnly(new ResolutionOutcome.Posted());
        assertThat(ledger.lookupAccounts(List.of(scam.fraud().payer()))
                                .getFirst()
                                .creditBalancePosted()
                        - victimBefore)
                .isEqualTo(700);
        assertThat(refund(victims, reportId, "{}").status())
                .as("after settlement too")
                .isEqualTo(200);
        assertThat(available(scam.f1()) + available(scam.f2()) + available(scam.f3()))
                .as("nothing refunded twice")
                .isEqualTo(300);
        assertThat(messages(fraudsters, FRAUDSTERS, 1, reportId))
                .anySatisfy(m -> assertThat(m).contains("\"status\":\"REFUNDED\"", "\"heldCentavos\":400"));
        assertThat(analyse(fraudsters, openId, "{\"decision\":\"REJECT\",\"reason\":\"done\"}")
                        .status())
                .isEqualTo(200);
        MoneyInvariants.check(ledger, everyAccount(), "refunded");
    }

    @Test
    void filingsRacingForOneReportHoldItsMoneyOnce() throws Exception {
        Scam scam = scam();
        Http victims = participants.bank(VICTIMS);
        String key = "race-" + UUID.randomUUID();
        List<java.util.concurrent.Future<Http.Response>> racing = new ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            for (int i = 0; i < 4; i++) {
                racing.add(pool.submit(() -> file(victims, scam.fraud(), "FRAUD", key)));
            }
        }
        Set<String> reports = new HashSet<>();
        for (var answer : racing) {
            Http.Response filed = answer.get();
            assertThat(filed.status()).as("%s", filed).isIn(200, 201);
            reports.add(filed.json().path("reportId").asString());
        }
        assertThat(reports).as("one report").hasSize(1);
        JsonNode report =
                victims.json("/infraction-reports/" + reports.iterator().next());
        assertThat(report.path("heldCentavos").asLong()).isEqualTo(1_000);
        long held = ledger.lookupAccounts(List.of(scam.f1(), scam.f2(), scam.f3())).stream()
                .mapToLong(account -> account.debitsPending())
                .sum();
        assertThat(held).as("held once in the ledger, not once per filing").isEqualTo(1_000);
        MoneyInvariants.check(ledger, everyAccount(), "racing filings");
    }

    @Test
    void badReportsAreRefusedAndHoldNothing() {
        Http victims = participants.bank(VICTIMS);
        Id128 payer = customer(VICTIMS, 1_000);
        Id128 payee = customer(FRAUDSTERS, 0);
        Payment unsettled = new Payment(ids.nextPaymentId(), payer, payee, 100);
        assertThat(settlement.reserve(List.of(unsettled))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(file(victims, unsettled, "FRAUD", "u-" + UUID.randomUUID()).problemType())
                .isEqualTo("payment-not-settled");
        Payment settled = settled(payer, payee, 200);
        String body = "{\"paymentId\":\"" + settled.id() + "\",\"reason\":\"FRAUD\"}";
        assertThat(victims.post("/infraction-reports", Http.JSON.readTree(body)).problemType())
                .as("no Idempotency-Key")
                .isEqualTo("missing-idempotency-key");
        for (String bad : List.of(
                "{\"paymentId\":\"" + settled.id() + "\",\"reason\":\"THEFT\"}",
                "{\"paymentId\":\"" + settled.id() + "\"}",
                "{\"paymentId\":\"xyz\",\"reason\":\"FRAUD\"}",
                "{\"paymentId\":\"" + settled.id() + "\",\"reason\":\"FRAUD\",\"details\":\"\"}")) {
            Http.Response refused = victims.post(
                    "/infraction-reports", Http.JSON.readTree(bad), "Idempotency-Key", "bad-" + bad.hashCode());
            assertThat(refused.status()).as("%s: %s", bad, refused).isEqualTo(400);
        }
        assertThat(available(payee)).as("nothing held").isEqualTo(200);
        assertThat(participants
                        .bank(VICTIMS)
                        .get("/infraction-reports/" + ids.nextPaymentId())
                        .problemType())
                .isEqualTo("report-not-found");
        settlement.voidAll(List.of(unsettled), io.pagora.settlement.domain.VoidCause.RECEIVING_BANK_REFUSED);
        MoneyInvariants.check(ledger, everyAccount(), "refusals");
    }

    private Http.Response file(Http bank, Payment payment, String reason, String key) {
        return bank.post(
                "/infraction-reports",
                Map.of("paymentId", payment.id().toString(), "reason", reason, "details", "the customer was deceived"),
                "Idempotency-Key",
                key);
    }

    private static Http.Response refund(Http bank, String reportId, String body) {
        return bank.post("/infraction-reports/" + reportId + "/refund", Http.JSON.readTree(body));
    }

    private static Http.Response analyse(Http bank, String reportId, String body) {
        return bank.post("/infraction-reports/" + reportId + "/analysis", Http.JSON.readTree(body));
    }

    private static Map<String, Long> heldBy(JsonNode report) {
        Map<String, Long> held = new java.util.HashMap<>();
        for (JsonNode node : report.path("trace")) {
            held.merge(
                    node.path("accountId").asString(), node.path("heldCentavos").asLong(), Long::sum);
        }
        held.values().removeIf(amount -> amount == 0);
        return held;
    }

    private long available(Id128 account) {
        return ledger.lookupAccounts(List.of(account)).getFirst().creditBalanceAvailable();
    }

    private Id128 customer(int ispb, long balance) {
        String id = participants.openAccount(ispb);
        if (balance > 0) {
            participants.fundCustomer(id, balance);
        }
        Id128 account = Id128.parse(id);
        accounts.add(account);
        return account;
    }

    private Payment settled(Id128 payer, Id128 payee, long amount) {
        Payment payment = new Payment(ids.nextPaymentId(), payer, payee, amount);
        assertThat(settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        return payment;
    }

    /** Every account the tests made, and the fraud holds accounts the reports opened. */
    private Set<Id128> everyAccount() {
        Set<Id128> all = new HashSet<>(accounts);
        all.addAll(participants.accounts());
        Set<Id128> existing = new HashSet<>();
        ledger.lookupAccounts(List.copyOf(all)).forEach(account -> existing.add(account.id()));
        return existing;
    }

    /** The bank's MED messages naming {@code reportId}, read from its stream's start until {@code count} came. */
    private static List<String> messages(Http bank, int ispb, int count, String reportId) {
        List<String> found = new ArrayList<>();
        String next = "/participants/%08d/stream/start".formatted(ispb);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (found.size() < count && System.nanoTime() < deadline) {
            Http.Response pulled = bank.get(next);
            assertThat(pulled.status()).as("%s", pulled).isIn(200, 204);
            Matcher matcher = MESSAGE.matcher(pulled.body());
            while (matcher.find()) {
                if (matcher.group().contains(reportId)) {
                    found.add(matcher.group());
                }
            }
            next = pulled.header("PI-Pull-Next");
        }
        assertThat(found).as("MED messages on %s's stream", ispb).hasSizeGreaterThanOrEqualTo(count);
        return found;
    }
}
