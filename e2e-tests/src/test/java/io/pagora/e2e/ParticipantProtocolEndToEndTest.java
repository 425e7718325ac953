package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.StreamReader;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Proves, on the whole platform with participants as receiving banks, the protocol of docs/participants.md through a
 * client written from that page ({@link StreamReader}), never the simulator's code:
 * <ul>
 *   <li>the payee's bank reads its instructions from its stream; it accepts one (SETTLED) and refuses one with a
 *       reason (REJECTED), in one answering call; the same answer again is answered as the first; a different
 *       second answer is 409 conflicting-answer and moves nothing;
 *   <li>one it never answers expires after the pending timeout (its reservation released); an answer after that
 *       is 410 answer-after-expiry and moves nothing;
 *   <li>an answer for a payment addressed to another bank, or to none, is 404 unknown-payment; another bank's stream
 *       is 403 not-your-stream; a malformed token 400, a used one 410, a 7th open stream 429;
 *   <li>messages pulled but not acknowledged come again, to another stream after the lease, and after a crash of
 *       payment-api and of clearing-service; acknowledged ones never do;
 *   <li>both banks read every final outcome from their streams (payer's and payee's roles);
 * </ul>
 * and ends with the money invariants: Σ debits = Σ credits, no limited account below zero, every accepted payment in
 * exactly one final state, read model = ledger.
 */
@ServerBacked
class ParticipantProtocolEndToEndTest {

    static final int BANK_A = 11_111_111;
    static final int BANK_B = 22_222_222;
    static final int BANK_C = 33_333_333;
    /** A participant with no payments: its streams are opened only to count them. */
    static final int BANK_D = 44_444_444;

    static final long RESERVE_CENTAVOS = 10_000_000L;
    static final long CUSTOMER_CENTAVOS = 1_000_000L;
    /** Long enough for a restart of payment-api and clearing-service between an instruction and its answer. */
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(15);

    static final int PULLS_MAX = 60;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aBankReadsItsInstructionsAndAnswersThemThroughTheProtocolAlone() {
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, PENDING_TIMEOUT, 1))) {
            pagora.startClearingWithParticipants();
            Participants participants = new Participants(pagora.paymentApi());
            Customer alice = participants.bankWithCustomer(BANK_A, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            Customer bob = participants.bankWithCustomer(BANK_B, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            Customer carol = participants.bankWithCustomer(BANK_C, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            String accepted = book.payAccepted(alice, bob, 1_000);
            String refused = book.payAccepted(alice, bob, 2_000);
            String unanswered = book.payAccepted(alice, bob, 3_000);
            String toCarol = book.payAccepted(alice, carol, 4_000);

            StreamReader b = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
            b.pullUntil(
                    messages -> messages.keySet()
                            .containsAll(List.of(
                                    StreamReader.instructionId(accepted),
                                    StreamReader.instructionId(refused),
                                    StreamReader.instructionId(unanswered))),
                    PULLS_MAX);
            assertThat(b.messages())
                    .as("B sees only instructions for its customers")
                    .doesNotContainKey(StreamReader.instructionId(toCarol));
            assertThat(b.messages()
                            .get(StreamReader.instructionId(accepted))
                            .path("amountCentavos")
                            .asLong())
                    .isEqualTo(1_000);

            // C answers its own payment: it settles.
            StreamReader c = new StreamReader(pagora.paymentApi().asBank(BANK_C), BANK_C);
            c.pullUntil(messages -> messages.containsKey(StreamReader.instructionId(toCarol)), PULLS_MAX);
            assertThat(c.answerOne(toCarol, Map.of("decision", "ACCEPT"))
                            .json()
                            .path("status")
                            .asString())
                    .isEqualTo("SETTLED");
            c.close();
            aBankAnswersManyAtOnceAndIdempotently(b, accepted, refused);
            foreignAndUnknownAreRefused(pagora, b, toCarol);
            unansweredExpiresAndALateAnswerMovesNothing(pagora, book, b, unanswered);
            Map<String, JsonNode> seenByB = streamsRedeliverWhatWasNotAcknowledged(pagora, book, alice, bob);
            bothBanksReadTheOutcomes(pagora, seenByB, accepted, refused, unanswered);

            Quiescence.await(pagora, Duration.ofSeconds(60));
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(60));
            assertThat(views.get(PaymentId.parse(accepted)).outcome()).isEqualTo("SETTLED");
            assertThat(views.get(PaymentId.parse(refused)).outcome()).startsWith("REJECTED");
            assertThat(views.get(PaymentId.parse(unanswered)).outcome()).isEqualTo("EXPIRED");
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    private static void aBankAnswersManyAtOnceAndIdempotently(StreamReader b, String accepted, String refused) {
        Http.Response answered = b.answer(List.of(
                Map.of("paymentId", accepted, "decision", "ACCEPT"),
                Map.of("paymentId", refused, "decision", "REFUSE", "reason", "AC03")));
        assertThat(answered.status()).as("%s", answered).isEqualTo(200);
        assertThat(answered.json().path("results").get(0).path("status").asString())
                .isEqualTo("SETTLED");
        assertThat(answered.json().path("results").get(1).path("status").asString())
                .isEqualTo("REJECTED");

        Http.Response again = b.answerOne(accepted, Map.of("decision", "ACCEPT"));
        assertThat(again.status()).as("the same answer again: %s", again).isEqualTo(200);
        assertThat(again.json().path("status").asString()).isEqualTo("SETTLED");
        Http.Response conflicting = b.answerOne(refused, Map.of("decision", "ACCEPT"));
        assertThat(conflicting.status())
                .as("a different second answer: %s", conflicting)
                .isEqualTo(409);
        assertThat(conflicting.problemType()).isEqualTo("conflicting-answer");
        Http.Response refuseSettled = b.answerOne(accepted, Map.of("decision", "REFUSE", "reason", "AC06"));
        assertThat(refuseSettled.status())
                .as("refusing a settled payment: %s", refuseSettled)
                .isEqualTo(409);

        Http.Response noReason = b.answerOne(refused, Map.of("decision", "REFUSE"));
        assertThat(noReason.status())
                .as("a refusal without reason: %s", noReason)
                .isEqualTo(400);
        Http.Response badReason = b.answerOne(refused, Map.of("decision", "REFUSE", "reason", "XX99"));
        assertThat(badReason.status())
                .as("a reason outside the list: %s", badReason)
                .isEqualTo(400);
    }

    private static void foreignAndUnknownAreRefused(Pagora pagora, StreamReader b, String toCarol) {
        Http.Response foreign = b.answerOne(toCarol, Map.of("decision", "ACCEPT"));
        assertThat(foreign.status())
                .as("answering another bank's payment: %s", foreign)
                .isEqualTo(404);
        assertThat(foreign.problemType()).isEqualTo("unknown-payment");
        Http.Response none = b.answerOne("0".repeat(31) + "1", Map.of("decision", "ACCEPT"));
        assertThat(none.status()).as("answering no payment: %s", none).isEqualTo(404);
        assertThat(none.body()).as("the same problem as another bank's payment").contains("unknown-payment");

        Http http = pagora.paymentApi().asBank(BANK_B);
        Http.Response othersStream = http.get("/participants/%08d/stream/start".formatted(BANK_C));
        assertThat(othersStream.status())
                .as("another bank's stream: %s", othersStream)
                .isEqualTo(403);
        assertThat(othersStream.problemType()).isEqualTo("not-your-stream");
        Http.Response othersAnswer = http.post(
                "/participants/%08d/answers".formatted(BANK_C),
                Map.of("answers", List.of(Map.of("paymentId", toCarol, "decision", "REFUSE", "reason", "AC03"))));
        assertThat(othersAnswer.status())
                .as("answering as another bank: %s", othersAnswer)
                .isEqualTo(403);
        Http.Response malformed = http.get("/participants/%08d/stream/pull/not-a-token".formatted(BANK_B));
        assertThat(malformed.status()).as("a malformed token: %s", malformed).isEqualTo(400);
        assertThat(malformed.problemType()).isEqualTo("malformed-token");

        StreamReader fresh = new StreamReader(pagora.paymentApi().asBank(BANK_D), BANK_D);
        fresh.start();
        String used = fresh.nextPath();
        fresh.pull();
        fresh.pull();
        Http.Response stale = fresh.repeat(used);
        assertThat(stale.status()).as("a used token: %s", stale).isEqualTo(410);
        assertThat(stale.problemType()).isEqualTo("stale-token");
        fresh.close();

        List<StreamReader> streams = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            StreamReader stream = new StreamReader(pagora.paymentApi().asBank(BANK_D), BANK_D);
            assertThat(stream.start().status()).isIn(200, 204);
            streams.add(stream);
        }
        Http.Response seventh = new StreamReader(pagora.paymentApi().asBank(BANK_D), BANK_D).start();
        assertThat(seventh.status()).as("a 7th open stream: %s", seventh).isEqualTo(429);
        assertThat(seventh.problemType()).isEqualTo("too-many-streams");
        streams.forEach(StreamReader::close);
    }

    private static void unansweredExpiresAndALateAnswerMovesNothing(
            Pagora pagora, PaymentBook book, StreamReader b, String unanswered) {
        Map<PaymentId, View> views =
                Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(30));
        assertThat(views.get(PaymentId.parse(unanswered)).outcome()).isEqualTo("EXPIRED");
        Http.Response late = b.answerOne(unanswered, Map.of("decision", "ACCEPT"));
        assertThat(late.status()).as("an answer after the expiry: %s", late).isEqualTo(410);
        assertThat(late.problemType()).isEqualTo("answer-after-expiry");
    }

    /**
     * A pull that is never acknowledged is delivered again: to another stream of the bank after the lease, and from
     * the durable position after payment-api and clearing-service crash; what was acknowledged is not.
     */
    private static Map<String, JsonNode> streamsRedeliverWhatWasNotAcknowledged(
            Pagora pagora, PaymentBook book, Customer alice, Customer bob) {
        StreamReader drain = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
        drain.start();
        for (int i = 0; i < 3; i++) {
            drain.pull();
        }
        drain.close();
        String first = book.payAccepted(alice, bob, 5_000);
        StreamReader abandoned = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
        abandoned.pullUntil(messages -> messages.containsKey(StreamReader.instructionId(first)), PULLS_MAX);
        StreamReader second = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
        second.pullUntil(messages -> messages.containsKey(StreamReader.instructionId(first)), PULLS_MAX);
        assertThat(second.messages())
                .as("after the lease, another stream gets the unacknowledged instruction")
                .containsKey(StreamReader.instructionId(first));
        assertThat(second.answerOne(first, Map.of("decision", "ACCEPT"))
                        .json()
                        .path("status")
                        .asString())
                .isEqualTo("SETTLED");
        second.close();

        String afterCrash = book.payAccepted(alice, bob, 6_000);
        StreamReader beforeCrash = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
        beforeCrash.pullUntil(messages -> messages.containsKey(StreamReader.instructionId(afterCrash)), PULLS_MAX);
        pagora.restartPaymentApi();
        pagora.startClearingWithParticipants();
        StreamReader restarted = new StreamReader(pagora.paymentApi().asBank(BANK_B), BANK_B);
        restarted.pullUntil(messages -> messages.containsKey(StreamReader.instructionId(afterCrash)), PULLS_MAX);
        assertThat(restarted.messages())
                .as("the acknowledged instruction is not delivered again")
                .doesNotContainKey(StreamReader.instructionId(first));
        assertThat(restarted
                        .answerOne(afterCrash, Map.of("decision", "ACCEPT"))
                        .json()
                        .path("status")
                        .asString())
                .isEqualTo("SETTLED");
        assertThat(restarted
                        .answerOne(first, Map.of("decision", "ACCEPT"))
                        .json()
                        .path("status")
                        .asString())
                .as("the same answer after the restarts")
                .isEqualTo("SETTLED");
        restarted.close();
        Map<String, JsonNode> seen = new HashMap<>(drain.messages());
        List.of(abandoned, second, beforeCrash, restarted).forEach(reader -> seen.putAll(reader.messages()));
        return seen;
    }

    private static void bothBanksReadTheOutcomes(
            Pagora pagora, Map<String, JsonNode> seenByB, String accepted, String refused, String unanswered) {
        StreamReader a = new StreamReader(pagora.paymentApi().asBank(BANK_A), BANK_A);
        a.pullUntil(
                messages -> messages.keySet()
                        .containsAll(List.of(
                                StreamReader.outcomeId(accepted, "payer"),
                                StreamReader.outcomeId(refused, "payer"),
                                StreamReader.outcomeId(unanswered, "payer"))),
                PULLS_MAX);
        assertThat(a.messages()
                        .get(StreamReader.outcomeId(accepted, "payer"))
                        .path("status")
                        .asString())
                .isEqualTo("SETTLED");
        assertThat(a.messages()
                        .get(StreamReader.outcomeId(refused, "payer"))
                        .path("status")
                        .asString())
                .isEqualTo("REJECTED");
        assertThat(a.messages()
                        .get(StreamReader.outcomeId(unanswered, "payer"))
                        .path("status")
                        .asString())
                .isEqualTo("EXPIRED");
        a.close();
        assertThat(seenByB)
                .as("B, the payee's bank, read every outcome of what it was instructed")
                .containsKeys(
                        StreamReader.outcomeId(accepted, "payee"),
                        StreamReader.outcomeId(refused, "payee"),
                        StreamReader.outcomeId(unanswered, "payee"));
        assertThat(seenByB.get(StreamReader.outcomeId(accepted, "payee"))
                        .path("status")
                        .asString())
                .isEqualTo("SETTLED");
        assertThat(seenByB.get(StreamReader.outcomeId(unanswered, "payee"))
                        .path("status")
                        .asString())
                .isEqualTo("EXPIRED");
        List<Account> reserves = pagora.ledger().lookupAccounts(List.of(ChartOfAccounts.reserve(new BankId(BANK_A))));
        assertThat(reserves.getFirst().debitsPending())
                .as("no reservation of A's is left pending")
                .isZero();
    }
}
