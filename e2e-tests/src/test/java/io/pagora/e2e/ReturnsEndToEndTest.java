package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Accepted;
import io.pagora.e2e.support.Poll;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.ServiceApplication;
import io.pagora.e2e.support.StreamReader;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Proves PIX end-to-end ids and returns (devoluções) on the whole platform, participants answering through the
 * protocol of docs/participants.md (each bank here is a client of that page, {@link StreamReader}):
 * <ul>
 *   <li>a settled payment returned whole: the money goes back, the original shows nothing left to return, the
 *       payer's statement shows the return as its own line linked to the original;
 *   <li>partial returns up to the amount, and one centavo more refused at once, moving nothing;
 *   <li>two returns racing for the remainder: exactly one settles (the ledger holds the line);
 *   <li>a return the original payer's bank refuses, and one it never answers (it expires): the amount is returnable
 *       again, and returned;
 *   <li>a replay (the same key and request, even once nothing is left to return), a return id reused;
 *   <li>bad input: another bank's payment, an unknown one, one not settled, a return of a return, an unknown reason, a
 *       malformed return id; and past the window;
 *   <li>an end-to-end id: found by either bank, replayed under another key, refused when reused for another request;
 *   <li>a MED refund of an accepted report (docs/med.md): within what a plain return left, through clearing and the
 *       victim's bank as a return, reason FR01;
 * </ul>
 * each scenario a test of its own, on payments of its own, ending with the money invariants (over the participants'
 * accounts and the returns' memorandum accounts); and, last, every accepted payment and return in one final state and
 * read model = ledger.
 *
 * <p>On each ledger ({@link OnPostgresql}, {@link OnTigerBeetle}: skipped without a TigerBeetle server, TIGERBEETLE_BIN
 * or Docker) the platform is started once and shared by every scenario: starting it takes far longer than a scenario.
 * The scenarios run one at a time, in the order of their {@link Order}: the balance checks of a scenario ("nothing
 * moved") hold only while no other scenario moves money, and the window's scenario comes late so that its payment,
 * settled at the start, is past the window with little left to wait.
 */
@ServerBacked
class ReturnsEndToEndTest {

    static final int BANK_A = 61_111_111;
    static final int BANK_B = 62_222_222;
    static final int BANK_C = 63_333_333;
    static final long RESERVE_CENTAVOS = 10_000_000L;
    static final long CUSTOMER_CENTAVOS = 1_000_000L;
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(5);
    /** Short, so the window's scenario sees a payment past it; the others return payments settled moments before. */
    static final Duration RETURN_WINDOW = Duration.ofSeconds(45);

    static final Duration FINAL_WAIT = Duration.ofSeconds(40);
    static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    static final int PULLS_MAX = 80;

    @Nested
    @DisplayName("on the PostgreSQL ledger")
    class OnPostgresql extends Scenarios {
        OnPostgresql() {
            super("postgresql");
        }
    }

    @Nested
    @DisplayName("on the TigerBeetle ledger")
    class OnTigerBeetle extends Scenarios {
        OnTigerBeetle() {
            super("tigerbeetle");
        }
    }

    /** Every scenario, on one platform started for {@code backend} before the first and stopped after the last. */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestClassOrder(ClassOrderer.OrderAnnotation.class)
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    abstract class Scenarios {

        private final String backend;
        private Pagora pagora;
        /** clearing-service serves only its actuator, over plain HTTP. */
        private Http clearingMetrics;

        private Participants participants;
        private PaymentBook book;
        private Customer alice;
        private Customer bob;
        private final Map<Integer, StreamReader> streams = new HashMap<>();
        /** Every payment and return payment-api accepted: each must end in exactly one final state. */
        private final List<Accepted> accepted = new ArrayList<>();

        private final Set<PaymentId> returned = new LinkedHashSet<>();
        /** Each return accepted, and the payment it returns. */
        private final Map<PaymentId, PaymentId> originalOf = new HashMap<>();
        /** Returns payment-api refused as exceeding what is left: each counted in its metrics. */
        private final AtomicInteger refusedAsExceeding = new AtomicInteger();
        /** The window's scenario's payment, settled first so that the window is over when that scenario runs. */
        private PaymentId early;

        private Instant earlySettledAt;

        Scenarios(String backend) {
            this.backend = backend;
        }

        @BeforeAll
        @Timeout(value = 6, unit = TimeUnit.MINUTES)
        void startPlatform() {
            pagora = Pagora.start(
                    new Pagora.Options(backend, 1.0, 0.0, PENDING_TIMEOUT, 1),
                    Map.of("pagora.payments.returns.window", RETURN_WINDOW.toMillis() + "ms"));
            clearingMetrics =
                    new Http("http://127.0.0.1:" + ServiceApplication.port(pagora.startClearingWithParticipants()));
            participants = new Participants(pagora.paymentApi());
            book = new PaymentBook(pagora.paymentApi());
            alice = participants.bankWithCustomer(BANK_A, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            bob = participants.bankWithCustomer(BANK_B, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            participants.bankWithCustomer(BANK_C, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            early = settled(5_000);
            earlySettledAt = Instant.now();
        }

        @AfterAll
        void stopPlatform() {
            if (pagora != null) {
                pagora.close();
            }
        }

        @Nested
        @Order(1)
        @DisplayName("a whole return")
        class WholeReturns {

            @Test
            void sendsTheMoneyBackLinkedBothWays() {
                long aliceBefore = balance(alice);
                PaymentId original = settled(10_000);
                Http.Response asked = askReturn(BANK_B, original, 10_000, "MD06", key());
                assertThat(asked.status()).as("%s", asked).isEqualTo(202);
                PaymentId refund =
                        PaymentId.parse(asked.json().path("paymentId").asString());
                record(refund, bob, alice, 10_000, original);
                String returnId = asked.json().path("returnId").asString();
                assertThat(PixId.problem(returnId, PixId.Kind.RETURN))
                        .as(returnId)
                        .isEmpty();
                assertThat(new PixId(returnId).bank()).isEqualTo(new BankId(BANK_B));
                assertThat(asked.json().path("originalPaymentId").asString()).isEqualTo(original.toString());

                JsonNode instruction = instructionTo(BANK_A, refund);
                assertThat(instruction.path("originalPaymentId").asString())
                        .as("the return instruction names its original")
                        .isEqualTo(original.toString());
                assertThat(instruction.path("returnReason").asString()).isEqualTo("MD06");
                assertThat(instruction.path("endToEndId").asString()).isEqualTo(returnId);
                answer(BANK_A, refund, true);
                assertThat(finalStatus(refund, BANK_B)).isEqualTo("SETTLED");
                assertThat(balance(alice)).as("the money came back").isEqualTo(aliceBefore);
                String outcome = StreamReader.outcomeId(refund.toString(), "payee");
                stream(BANK_A).pullUntil(messages -> messages.containsKey(outcome), PULLS_MAX);
                assertThat(stream(BANK_A)
                                .messages()
                                .get(outcome)
                                .path("endToEndId")
                                .asString())
                        .as("the outcome on the stream carries the return id")
                        .isEqualTo(returnId);

                JsonNode originalView = awaitReturnsProjected(original, BANK_A, 10_000);
                assertThat(originalView.path("returnableCentavos").asLong()).isZero();
                assertThat(originalView.path("returns").get(0).path("paymentId").asString())
                        .isEqualTo(refund.toString());
                assertThat(originalView.path("returns").get(0).path("returnId").asString())
                        .isEqualTo(returnId);
                JsonNode refundView = pagora.reporting().asBank(BANK_A).json("/payments/" + refund);
                assertThat(refundView.path("returnOf").path("paymentId").asString())
                        .isEqualTo(original.toString());
                assertThat(refundView.path("returnOf").path("reason").asString())
                        .isEqualTo("MD06");
                JsonNode line = statementLine(alice.id(), refund, BANK_A);
                assertThat(line.path("direction").asString()).isEqualTo("CREDIT");
                assertThat(line.path("returnOf").path("paymentId").asString())
                        .as("the statement line links the original")
                        .isEqualTo(original.toString());
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(2)
        @DisplayName("partial returns")
        class PartialReturns {

            @Test
            void reachTheAmountAndNotOneCentavoMore() {
                PaymentId original = settled(9_000);
                PaymentId first = acceptedReturn(original, 4_000, "BE08");
                answer(BANK_A, first, true);
                PaymentId second = acceptedReturn(original, 5_000, "FR01");
                answer(BANK_A, second, true);
                assertThat(List.of(finalStatus(first, BANK_B), finalStatus(second, BANK_B)))
                        .containsOnly("SETTLED");

                Map<Id128, Long> before = balances();
                Http.Response over = askReturn(BANK_B, original, 1, "MD06", key());
                assertThat(over.status()).as("one centavo over: %s", over).isEqualTo(422);
                assertThat(over.problemType()).isEqualTo("return-exceeds-returnable");
                refusedAsExceeding.incrementAndGet();
                assertThat(balances()).as("nothing moved").isEqualTo(before);
                assertThat(awaitReturnsProjected(original, BANK_B, 9_000)
                                .path("returnsCount")
                                .asLong())
                        .isEqualTo(2);
                assertMoneyInvariants();
            }

            @Test
            void racingForTheRemainderSettleOnce() throws Exception {
                PaymentId original = settled(8_000);
                CountDownLatch go = new CountDownLatch(1);
                List<CompletableFuture<Http.Response>> racing = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    String key = key();
                    racing.add(CompletableFuture.supplyAsync(() -> {
                        awaitLatch(go);
                        return askReturn(BANK_B, original, 6_000, "MD06", key);
                    }));
                }
                go.countDown();
                List<PaymentId> acceptedReturns = new ArrayList<>();
                int refusedAtOnce = 0;
                for (CompletableFuture<Http.Response> future : racing) {
                    Http.Response response = future.get(30, TimeUnit.SECONDS);
                    if (response.status() == 202) {
                        PaymentId id = PaymentId.parse(
                                response.json().path("paymentId").asString());
                        acceptedReturns.add(id);
                        record(id, bob, alice, 6_000, original);
                    } else {
                        assertThat(response.status()).as("%s", response).isEqualTo(422);
                        assertThat(response.problemType()).isEqualTo("return-exceeds-returnable");
                        refusedAsExceeding.incrementAndGet();
                        refusedAtOnce++;
                    }
                }
                assertThat(acceptedReturns)
                        .as("at least one return is accepted")
                        .isNotEmpty();
                StreamReader a = stream(BANK_A);
                a.pullUntil(messages -> true, 1);
                // The bank answers every return instructed to it; one the ledger refused was never instructed.
                List<String> outcomes = new ArrayList<>();
                for (PaymentId id : acceptedReturns) {
                    Poll.upTo(FINAL_WAIT.multipliedBy(2), POLL_INTERVAL).until(() -> {
                        if (!statusOf(id, BANK_B).equals("ACCEPTED")) {
                            return true;
                        }
                        a.pull();
                        if (a.messages().containsKey(StreamReader.instructionId(id.toString()))) {
                            a.answerOne(id.toString(), Map.of("decision", "ACCEPT"));
                        }
                        return false;
                    });
                    outcomes.add(finalStatus(id, BANK_B));
                }
                Pagora.log(
                        "racing returns: %d accepted by payment-api (%s), %d refused at once",
                        acceptedReturns.size(), outcomes, refusedAtOnce);
                assertThat(outcomes.stream().filter("SETTLED"::equals))
                        .as("exactly one settles: %s", outcomes)
                        .hasSize(1);
                assertThat(outcomes.stream().filter(outcome -> !outcome.equals("SETTLED")))
                        .allSatisfy(outcome -> assertThat(outcome).isEqualTo("REJECTED(RETURN_EXCEEDS_RETURNABLE)"));
                assertThat(awaitReturnsProjected(original, BANK_B, 6_000)
                                .path("returnableCentavos")
                                .asLong())
                        .isEqualTo(2_000);
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(3)
        @DisplayName("a return that does not settle")
        class UnsettledReturns {

            @Test
            void refusedByThePayersBankLeavesTheAmountReturnable() {
                PaymentId original = settled(7_000);
                PaymentId refused = acceptedReturn(original, 7_000, "SL02");
                answer(BANK_A, refused, false);
                assertThat(finalStatus(refused, BANK_B)).isEqualTo("REJECTED(RECEIVING_BANK_REFUSED)");
                PaymentId again = acceptedReturn(original, 7_000, "SL02");
                answer(BANK_A, again, true);
                assertThat(finalStatus(again, BANK_B))
                        .as("returnable again after the refusal")
                        .isEqualTo("SETTLED");
                assertMoneyInvariants();
            }

            @Test
            void neverAnsweredExpiresAndLeavesTheAmountReturnable() {
                PaymentId original = settled(6_000);
                PaymentId unanswered = acceptedReturn(original, 6_000, "BE08");
                assertThat(finalStatus(unanswered, BANK_B)).as("never answered").isEqualTo("EXPIRED");
                PaymentId retried = acceptedReturn(original, 6_000, "BE08");
                answer(BANK_A, retried, true);
                assertThat(finalStatus(retried, BANK_B))
                        .as("returnable again after the expiry")
                        .isEqualTo("SETTLED");
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(4)
        @DisplayName("replays")
        class Replays {

            @Test
            void aReplayIsAnsweredAsTheFirstTimeAndAReusedReturnIdRefused() {
                PaymentId original = settled(3_000);
                String key = key();
                String returnId = PixId.of(PixId.Kind.RETURN, new BankId(BANK_B), Instant.now(), "replay00001")
                        .value();
                Http.Response first = askReturn(BANK_B, original, 3_000, "MD06", key, returnId);
                assertThat(first.status()).as("%s", first).isEqualTo(202);
                PaymentId refund =
                        PaymentId.parse(first.json().path("paymentId").asString());
                record(refund, bob, alice, 3_000, original);
                answer(BANK_A, refund, true);
                assertThat(finalStatus(refund, BANK_B)).isEqualTo("SETTLED");

                Http.Response replay = askReturn(BANK_B, original, 3_000, "MD06", key, returnId);
                assertThat(replay.status())
                        .as("a replay once nothing is left: %s", replay)
                        .isEqualTo(202);
                assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
                assertThat(replay.json().path("paymentId").asString()).isEqualTo(refund.toString());
                Http.Response sameIdOtherKey = askReturn(BANK_B, original, 3_000, "MD06", key(), returnId);
                assertThat(sameIdOtherKey.status()).as("%s", sameIdOtherKey).isEqualTo(202);
                assertThat(sameIdOtherKey.json().path("paymentId").asString()).isEqualTo(refund.toString());
                Http.Response reused = askReturn(BANK_B, settled(2_000), 1_000, "MD06", key(), returnId);
                assertThat(reused.status())
                        .as("the return id of another return: %s", reused)
                        .isEqualTo(409);
                assertThat(reused.problemType()).isEqualTo("return-id-reused");
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(5)
        @DisplayName("refusals")
        class Refusals {

            @Test
            void badInputIsRefusedAndMovesNothing() {
                PaymentId original = settled(4_000);
                Map<Id128, Long> before = balances();
                // As an unknown id: a third bank learns nothing of another bank's payment.
                expectProblem(askReturn(BANK_C, original, 100, "MD06", key()), 404, "unknown-payment");
                expectProblem(askReturn(BANK_A, original, 100, "MD06", key()), 403, "not-the-payees-bank");
                PaymentId unknown = new PaymentId(
                        new Id128(original.value().hi(), original.value().lo() + 0x100));
                expectProblem(askReturn(BANK_B, unknown, 100, "MD06", key()), 404, "unknown-payment");
                expectProblem(askReturn(BANK_B, original, 100, "XX99", key()), 400, "invalid-return-reason");
                expectProblem(askReturn(BANK_B, original, 0, "MD06", key()), 422, "invalid-amount");
                expectProblem(
                        askReturn(BANK_B, original, 100, "MD06", key(), "D" + "1".repeat(31)),
                        400,
                        "invalid-return-id");
                expectProblem(
                        askReturn(
                                BANK_B,
                                original,
                                100,
                                "MD06",
                                key(),
                                PixId.of(PixId.Kind.RETURN, new BankId(BANK_A), Instant.now(), "otherBank01")
                                        .value()),
                        400,
                        "invalid-return-id");
                Http.Response notFound = pagora.paymentApi()
                        .asBank(BANK_B)
                        .post(
                                "/payments/not-an-id/returns",
                                Map.of("amountCentavos", 1, "reason", "MD06"),
                                "Idempotency-Key",
                                key());
                expectProblem(notFound, 400, "invalid-field");
                assertThat(balances()).as("nothing moved").isEqualTo(before);
                assertMoneyInvariants();
            }

            @Test
            void aPaymentNotSettledYetIsNotReturned() {
                long aliceBefore = balance(alice);
                PaymentId inFlight = PaymentId.parse(book.payAccepted(alice, bob, 1_500));
                record(inFlight, alice, bob, 1_500, null);
                instructionTo(BANK_B, inFlight); // reserved in the ledger, not answered yet
                expectProblem(askReturn(BANK_B, inFlight, 100, "MD06", key()), 409, "payment-not-settled");
                answer(BANK_B, inFlight, true);
                assertThat(finalStatus(inFlight, BANK_A)).isEqualTo("SETTLED");
                assertThat(balance(alice) - aliceBefore)
                        .as("only the payment moved")
                        .isEqualTo(-1_500);
                assertMoneyInvariants();
            }

            @Test
            void aReturnIsNotReturned() {
                PaymentId original = settled(4_000);
                long aliceBefore = balance(alice);
                PaymentId aReturn = acceptedReturn(original, 1_000, "MD06");
                answer(BANK_A, aReturn, true);
                assertThat(finalStatus(aReturn, BANK_B)).isEqualTo("SETTLED");
                expectProblem(askReturn(BANK_A, aReturn, 100, "MD06", key()), 422, "return-of-a-return");
                assertThat(balance(alice) - aliceBefore)
                        .as("only the return moved")
                        .isEqualTo(1_000);
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(6)
        @DisplayName("end-to-end ids")
        class EndToEndIds {

            @Test
            void foundByEitherBankAndNamingOnePayment() {
                String endToEndId = PixId.of(PixId.Kind.END_TO_END, new BankId(BANK_A), Instant.now(), "e2eScenario")
                        .value();
                Map<String, Object> body = Map.of(
                        "payerAccountId",
                        alice.id().toString(),
                        "payeeAccountId",
                        bob.id().toString(),
                        "amountCentavos",
                        2_500,
                        "endToEndId",
                        endToEndId);
                Http a = pagora.paymentApi().asBank(BANK_A);
                Http.Response first = a.post("/payments", body, "Idempotency-Key", key());
                assertThat(first.status()).as("%s", first).isEqualTo(202);
                assertThat(first.json().path("endToEndId").asString()).isEqualTo(endToEndId);
                PaymentId paid = PaymentId.parse(first.json().path("paymentId").asString());
                record(paid, alice, bob, 2_500, null);
                Http.Response sameRequestOtherKey = a.post("/payments", body, "Idempotency-Key", key());
                assertThat(sameRequestOtherKey.status()).isEqualTo(202);
                assertThat(sameRequestOtherKey.json().path("paymentId").asString())
                        .isEqualTo(paid.toString());
                Map<String, Object> other = new HashMap<>(body);
                other.put("amountCentavos", 2_501);
                expectProblem(a.post("/payments", other, "Idempotency-Key", key()), 409, "end-to-end-id-reused");
                answer(BANK_B, paid, true);
                assertThat(finalStatus(paid, BANK_A)).isEqualTo("SETTLED");

                for (int bank : List.of(BANK_A, BANK_B)) {
                    Http.Response found = pagora.reporting().asBank(bank).get("/payments/end-to-end/" + endToEndId);
                    assertThat(found.status()).as("bank %d: %s", bank, found).isEqualTo(200);
                    assertThat(found.json().path("paymentId").asString()).isEqualTo(paid.toString());
                }
                Http.Response stranger = pagora.reporting().asBank(BANK_C).get("/payments/end-to-end/" + endToEndId);
                assertThat(stranger.status()).as("a third bank: %s", stranger).isEqualTo(404);
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(7)
        @DisplayName("the return window")
        class TheWindow {

            @Test
            void aPaymentPastTheWindowIsNotReturned() {
                // Lets the window run out on purpose: nothing to poll for, the payment must simply be old enough.
                Books.sleep(Math.max(
                        0,
                        Duration.between(
                                        Instant.now(),
                                        earlySettledAt.plus(RETURN_WINDOW).plusSeconds(2))
                                .toMillis()));
                expectProblem(askReturn(BANK_B, early, 100, "MD06", key()), 422, "return-window-closed");
                assertMoneyInvariants();
            }
        }

        @Nested
        @Order(8)
        @DisplayName("a MED refund")
        class MedRefund {

            @Test
            void anAcceptedReportIsRefundedThroughTheReturnsFlowWithinWhatPlainReturnsLeft() {
                long aliceBefore = balance(alice);
                PaymentId fraud = settled(20_000);
                Http.Response filed = pagora.paymentApi()
                        .asBank(BANK_A)
                        .post(
                                "/infraction-reports",
                                Map.of("paymentId", fraud.toString(), "reason", "FRAUD"),
                                "Idempotency-Key",
                                key());
                assertThat(filed.status()).as("%s", filed).isEqualTo(201);
                String report = filed.json().path("reportId").asString();
                assertThat(filed.json().path("heldCentavos").asLong()).isEqualTo(20_000);
                Http.Response accepted = pagora.paymentApi()
                        .asBank(BANK_B)
                        .post("/infraction-reports/" + report + "/analysis", Map.of("decision", "ACCEPT"));
                assertThat(accepted.status()).as("%s", accepted).isEqualTo(200);
                // Bob's bank returns part of it first, from Bob's own money: the refund then has less to return.
                PaymentId plain = acceptedReturn(fraud, 5_000, "MD06");
                answer(BANK_A, plain, true);
                assertThat(finalStatus(plain, BANK_B)).isEqualTo("SETTLED");

                Map<Id128, Long> before = balances();
                Http.Response all = refund(report, Map.of());
                expectProblem(all, 422, "return-exceeds-returnable");
                assertThat(all.json().path("returnableCentavos").asLong()).isEqualTo(15_000);
                assertThat(balances()).as("nothing moved").isEqualTo(before);

                Http.Response refunded = refund(report, Map.of("amountCentavos", 15_000));
                assertThat(refunded.status()).as("%s", refunded).isEqualTo(200);
                JsonNode hold = refunded.json().path("trace").get(0);
                assertThat(hold.path("refundOutcome").asString()).isEqualTo("RESERVED");
                PaymentId refund = PaymentId.parse(hold.path("refundPaymentId").asString());
                record(refund, bob, alice, 15_000, fraud);
                JsonNode instruction = instructionTo(BANK_A, refund);
                assertThat(instruction.path("returnReason").asString()).isEqualTo("FR01");
                assertThat(instruction.path("originalPaymentId").asString()).isEqualTo(fraud.toString());
                answer(BANK_A, refund, true);
                assertThat(finalStatus(refund, BANK_B)).isEqualTo("SETTLED");
                assertThat(balance(alice))
                        .as("all of it back: 5,000 returned, 15,000 refunded")
                        .isEqualTo(aliceBefore);
                assertThat(pagora.ledger()
                                .lookupAccounts(List.of(bob.id()))
                                .getFirst()
                                .debitsPending())
                        .as("the rest of the hold released")
                        .isZero();
                assertThat(refund(report, Map.of()).json().path("status").asString())
                        .as("asked again: the same refund, nothing moves")
                        .isEqualTo("REFUNDED");
                assertThat(awaitReturnsProjected(fraud, BANK_A, 20_000)
                                .path("returnableCentavos")
                                .asLong())
                        .isZero();
                assertMoneyInvariants();
            }

            private Http.Response refund(String report, Map<String, Object> body) {
                return pagora.paymentApi().asBank(BANK_A).post("/infraction-reports/" + report + "/refund", body);
            }
        }

        /** Last: over every payment and return the scenarios before it made. */
        @Nested
        @Order(Integer.MAX_VALUE)
        @DisplayName("the books, after every scenario")
        class TheBooks {

            @Test
            void everyPaymentAndReturnIsFinalAndTheReadModelEqualsTheLedger() {
                Quiescence.await(pagora, Duration.ofSeconds(60));
                Map<PaymentId, View> views =
                        Books.awaitFinalStates(pagora.reporting(), accepted, Duration.ofSeconds(60));
                assertMoneyInvariants();
                Books.assertReadModelEqualsLedger(pagora, participants, accepted, views);
                Books.assertOutcomesAgreeAndNothingLost(pagora, views);
                assertReturnablesAgree(views);
                assertReturnMetrics(views);
            }
        }

        // -----------------------------------------------------------------------------------------------------------

        /** Alice pays Bob {@code amount}; Bob's bank accepts it through its stream; it settles. */
        private PaymentId settled(long amountCentavos) {
            PaymentId id = PaymentId.parse(book.payAccepted(alice, bob, amountCentavos));
            record(id, alice, bob, amountCentavos, null);
            answer(BANK_B, id, true);
            assertThat(finalStatus(id, BANK_A)).isEqualTo("SETTLED");
            return id;
        }

        /** Bob's bank returns {@code amount} of {@code original}; payment-api accepts it (202). */
        private PaymentId acceptedReturn(PaymentId original, long amountCentavos, String reason) {
            Http.Response response = askReturn(BANK_B, original, amountCentavos, reason, key());
            assertThat(response.status()).as("%s", response).isEqualTo(202);
            PaymentId id = PaymentId.parse(response.json().path("paymentId").asString());
            record(id, bob, alice, amountCentavos, original);
            return id;
        }

        private Http.Response askReturn(int bank, PaymentId original, long amountCentavos, String reason, String key) {
            return askReturn(bank, original, amountCentavos, reason, key, null);
        }

        private Http.Response askReturn(
                int bank, PaymentId original, long amountCentavos, String reason, String key, String returnId) {
            Map<String, Object> body = new HashMap<>(Map.of("amountCentavos", amountCentavos, "reason", reason));
            if (returnId != null) {
                body.put("returnId", returnId);
            }
            return pagora.paymentApi()
                    .asBank(bank)
                    .post("/payments/" + original + "/returns", body, "Idempotency-Key", key);
        }

        private JsonNode instructionTo(int bank, PaymentId payment) {
            String id = StreamReader.instructionId(payment.toString());
            StreamReader stream = stream(bank);
            stream.pullUntil(messages -> messages.containsKey(id), PULLS_MAX);
            return stream.messages().get(id);
        }

        private void answer(int bank, PaymentId payment, boolean accept) {
            instructionTo(bank, payment);
            Map<String, Object> decision =
                    accept ? Map.of("decision", "ACCEPT") : Map.of("decision", "REFUSE", "reason", "AC03");
            Http.Response response = stream(bank).answerOne(payment.toString(), decision);
            assertThat(response.status())
                    .as("answering %s: %s", payment, response)
                    .isEqualTo(200);
        }

        private StreamReader stream(int bank) {
            return streams.computeIfAbsent(
                    bank, ispb -> new StreamReader(pagora.paymentApi().asBank(ispb), ispb));
        }

        private void record(PaymentId id, Customer payer, Customer payee, long amountCentavos, PaymentId original) {
            accepted.add(new Accepted(id, payer.id(), payee.id(), amountCentavos));
            if (original != null) {
                returned.add(original);
                originalOf.put(id, original);
            }
        }

        private String statusOf(PaymentId payment, int bank) {
            Http.Response response = pagora.reporting().asBank(bank).get("/payments/" + payment);
            if (response.status() == 404) {
                return "ACCEPTED";
            }
            JsonNode body = response.json();
            return body.hasNonNull("reason")
                    ? body.path("status").asString() + "(" + body.path("reason").asString() + ")"
                    : body.path("status").asString();
        }

        /** Waits (bounded) until the read model shows the payment final, as {@code bank} reads it. */
        private String finalStatus(PaymentId payment, int bank) {
            return Poll.upTo(FINAL_WAIT, POLL_INTERVAL)
                    .alias(payment + " final, as bank " + bank + " reads it")
                    .until(() -> statusOf(payment, bank), status -> !status.equals("ACCEPTED"));
        }

        /** Waits (bounded) until the read model shows {@code returnedCentavos} of {@code original} settled. */
        private JsonNode awaitReturnsProjected(PaymentId original, int bank, long returnedCentavos) {
            AtomicReference<JsonNode> view = new AtomicReference<>();
            Poll.upTo(FINAL_WAIT, POLL_INTERVAL).untilAsserted(() -> {
                view.set(pagora.reporting().asBank(bank).json("/payments/" + original));
                assertThat(view.get().path("returnedCentavos").asLong())
                        .as("%s", view.get())
                        .isEqualTo(returnedCentavos);
            });
            return view.get();
        }

        private JsonNode statementLine(Id128 account, PaymentId payment, int bank) {
            JsonNode entries = pagora.reporting()
                    .asBank(bank)
                    .json("/accounts/" + account + "/statement?limit=100")
                    .path("entries");
            for (JsonNode entry : entries) {
                if (entry.path("paymentId").asString().equals(payment.toString())) {
                    return entry;
                }
            }
            throw new AssertionError("no line of " + payment + " in the statement of " + account + ": " + entries);
        }

        private long balance(Customer customer) {
            return balances().get(customer.id());
        }

        private Map<Id128, Long> balances() {
            Map<Id128, Long> balances = new HashMap<>();
            pagora.ledger()
                    .lookupAccounts(List.copyOf(participants.allAccounts()))
                    .forEach(account -> balances.put(account.id(), account.creditsPosted() - account.debitsPosted()));
            return balances;
        }

        /** Over the participants' accounts and the returns' memorandum accounts (returns control, each returnable). */
        private void assertMoneyInvariants() {
            Set<Id128> accounts = new LinkedHashSet<>(participants.allAccounts());
            if (!returned.isEmpty()) {
                accounts.add(ChartOfAccounts.returnsControl());
                returned.forEach(original -> accounts.add(ChartOfAccounts.returnable(original)));
            }
            Books.assertMoneyInvariants(pagora.ledger(), accounts, Duration.ofSeconds(15));
        }

        /**
         * Read model = ledger for returns: each original's returnable account holds its amount (credited once) and,
         * as debits, exactly the returns the read model shows SETTLED, nothing pending; and the read model's own view
         * of the original says the same.
         */
        private void assertReturnablesAgree(Map<PaymentId, View> views) {
            Map<PaymentId, Long> settledReturns = new HashMap<>();
            originalOf.forEach((refund, original) -> {
                if (views.get(refund).settled()) {
                    settledReturns.merge(original, views.get(refund).amountCentavos(), Long::sum);
                }
            });
            for (PaymentId original : returned) {
                var account = pagora.ledger()
                        .lookupAccounts(List.of(ChartOfAccounts.returnable(original)))
                        .getFirst();
                long returnedCentavos = settledReturns.getOrDefault(original, 0L);
                assertThat(account.creditsPosted())
                        .as("returnable of %s: its amount", original)
                        .isEqualTo(views.get(original).amountCentavos());
                assertThat(account.debitsPosted())
                        .as("returnable of %s: its settled returns", original)
                        .isEqualTo(returnedCentavos);
                assertThat(account.debitsPending())
                        .as("nothing held on the returnable of %s", original)
                        .isZero();
                JsonNode view = pagora.reporting().asBank(BANK_A).json("/payments/" + original);
                assertThat(view.path("returnedCentavos").asLong())
                        .as("read model of %s", original)
                        .isEqualTo(returnedCentavos);
                assertThat(view.path("returnableCentavos").asLong())
                        .isEqualTo(views.get(original).amountCentavos() - returnedCentavos);
            }
        }

        /** Each count as large as the scenarios that ran make it (all of them: each positive). */
        private void assertReturnMetrics(Map<PaymentId, View> views) {
            if (originalOf.keySet().stream()
                    .anyMatch(refund -> views.get(refund).settled())) {
                String clearing = clearingMetrics.get("/actuator/prometheus").body();
                assertThat(Books.metric(clearing, "pagora_clearing_returns_total", "outcome=\"SETTLED\""))
                        .as("returns settled, by reason and outcome")
                        .isPositive();
            }
            if (refusedAsExceeding.get() > 0) {
                String api = pagora.paymentApi()
                        .asOperator()
                        .get("/actuator/prometheus")
                        .body();
                assertThat(Books.metric(api, "pagora_returns_requested_total", "outcome=\"return-exceeds-returnable\""))
                        .isPositive()
                        .isGreaterThanOrEqualTo(refusedAsExceeding.get());
            }
            assertThat(views.values().stream().filter(View::settled)).isNotEmpty();
        }

        private static void expectProblem(Http.Response response, int status, String type) {
            assertThat(response.status()).as("%s", response).isEqualTo(status);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.problemType()).as("%s", response).isEqualTo(type);
        }

        private static String key() {
            return "return-test-" + UUID.randomUUID();
        }

        private static void awaitLatch(CountDownLatch latch) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
