package io.pagora.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.pagora.simulator.Behaviour.Mode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One bank against a switch in this JVM ({@link FakeSwitch}): it reads its instructions from its stream, drops
 * duplicates, answers as its behaviour says, counts the switch's verdicts, sends again only what the switch did not
 * take, and asks for returns.
 */
class SimulatedBankTest {

    private static final String FIRST = "0000000000000000000000000000000a";
    private static final String SECOND = "0000000000000000000000000000000b";
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeSwitch fakeSwitch;
    private final Metrics metrics = new Metrics();
    private SimulatedBank bank;

    SimulatedBankTest() throws Exception {
        fakeSwitch = new FakeSwitch();
    }

    @AfterEach
    void stop() {
        if (bank != null) {
            bank.stop();
        }
        fakeSwitch.close();
    }

    @Test
    void everyInstructionIsAcceptedOnceAndItsVerdictCounted() throws Exception {
        fakeSwitch.messages(messages(instruction(FIRST), instruction(SECOND), instruction(FIRST)));

        start(new Behaviour(1, 0, 0, 0, Mode.UP, 0), 0);

        assertThat(answers(2))
                .containsExactlyInAnyOrder(
                        "{\"paymentId\":\"" + FIRST + "\",\"decision\":\"ACCEPT\"}",
                        "{\"paymentId\":\"" + SECOND + "\",\"decision\":\"ACCEPT\"}");
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(metrics.scrape())
                        .contains(
                                "pagora_simulator_verdicts_total{bank=\"10002222\",verdict=\"SETTLED\"} 2.0",
                                "pagora_simulator_accept_to_answered_seconds_count{bank=\"10002222\"} 2",
                                "pagora_simulator_instructions_total{bank=\"10002222\",decision=\"ACCEPT\"} 2.0",
                                "pagora_simulator_duplicates_total{bank=\"10002222\"} 1.0",
                                "pagora_simulator_pulls_total{bank=\"10002222\",status=\"200\"} 1.0"));
        assertThat(fakeSwitch.answers().poll(300, TimeUnit.MILLISECONDS)).isNull();
        assertThat(fakeSwitch.answerCalls()).allSatisfy(body -> assertThat(body).startsWith("{\"answers\":[{"));
    }

    @Test
    void aRefusingBankRefusesWithItsReason() throws Exception {
        fakeSwitch.messages(messages(instruction(FIRST))).verdicts(paymentId -> "REJECTED");

        start(new Behaviour(0, 1, 0, 0, Mode.UP, 0), 0);

        assertThat(fakeSwitch.answerCalls().poll(10, TimeUnit.SECONDS))
                .isEqualTo("{\"answers\":[{\"paymentId\":\"" + FIRST
                        + "\",\"decision\":\"REFUSE\",\"reason\":\"AC06\"}]}");
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(metrics.scrape())
                        .contains(
                                "pagora_simulator_verdicts_total{bank=\"10002222\",verdict=\"REJECTED\"} 1.0",
                                "pagora_simulator_answer_calls_total{bank=\"10002222\",status=\"200\"} 1.0"));
    }

    @Test
    void aBankWithNothingToAcceptOrRefuseAnswersNothing() throws Exception {
        fakeSwitch.messages(messages(instruction(FIRST)));

        start(new Behaviour(0, 0, 0, 0, Mode.UP, 0), 0);

        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(metrics.scrape())
                        .contains("pagora_simulator_instructions_total{bank=\"10002222\",decision=\"NONE\"} 1.0"));
        assertThat(fakeSwitch.answerCalls().poll(300, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void anAnswerTheBrokerDidNotTakeGoesAgainButAPendingVerdictDoesNot() throws Exception {
        AtomicInteger secondCalls = new AtomicInteger();
        fakeSwitch
                .messages(messages(instruction(FIRST), instruction(SECOND)))
                .verdicts(paymentId -> paymentId.equals(SECOND) && secondCalls.getAndIncrement() == 0
                        ? "problem:broker-unavailable"
                        : "problem:verdict-pending");

        start(new Behaviour(1, 0, 0, 0, Mode.UP, 0), 0);

        assertThat(answers(3))
                .containsExactlyInAnyOrder(
                        "{\"paymentId\":\"" + FIRST + "\",\"decision\":\"ACCEPT\"}",
                        "{\"paymentId\":\"" + SECOND + "\",\"decision\":\"ACCEPT\"}",
                        "{\"paymentId\":\"" + SECOND + "\",\"decision\":\"ACCEPT\"}");
        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(metrics.scrape())
                                .contains(
                                        "pagora_simulator_verdicts_total{bank=\"10002222\",verdict=\"verdict-pending\"} 2.0",
                                        "pagora_simulator_verdicts_total{bank=\"10002222\",verdict=\"broker-unavailable\"} 1.0"));
        assertThat(fakeSwitch.answers().poll(1, TimeUnit.SECONDS)).isNull();
        assertThat(metrics.scrape()).doesNotContain("pagora_simulator_accept_to_answered_seconds_count");
    }

    @Test
    void aFailedAnsweringCallIsCountedByItsStatusAndSentAgain() throws Exception {
        fakeSwitch.messages(messages(instruction(FIRST))).answerStatus(503);

        start(new Behaviour(1, 0, 0, 0, Mode.UP, 0), 0);

        assertThat(fakeSwitch.answerCalls().poll(10, TimeUnit.SECONDS)).contains(FIRST);
        assertThat(fakeSwitch.answerCalls().poll(10, TimeUnit.SECONDS)).contains(FIRST);
        assertThat(metrics.scrape()).contains("pagora_simulator_answer_calls_total{bank=\"10002222\",status=\"503\"}");
    }

    @Test
    void aBankReturningAllItIsPaidAsksForTheReturnOfASettledPaymentButNotOfAReturn() throws Exception {
        String paidAsPayer = "0000000000000000000000000000000c";
        fakeSwitch.messages(messages(
                instruction(SECOND, FIRST),
                concluded(SECOND, "PAYEE", "SETTLED"),
                concluded(FIRST, "PAYEE", "SETTLED"),
                concluded(paidAsPayer, "PAYER", "SETTLED")));

        start(new Behaviour(0, 0, 0, 0, Mode.UP, 0), 1);

        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(metrics.scrape())
                                .contains(
                                        "pagora_simulator_returns_total{bank=\"10002222\",status=\"201\"} 1.0",
                                        "pagora_simulator_outcomes_total{bank=\"10002222\",role=\"PAYEE\",status=\"SETTLED\"} 2.0",
                                        "pagora_simulator_outcomes_total{bank=\"10002222\",role=\"PAYER\",status=\"SETTLED\"} 1.0"));
        assertThat(fakeSwitch.returnRequests())
                .singleElement()
                .asString()
                .matches("/payments/" + FIRST + "/returns" + " return-" + FIRST
                        + " \\{\"amountCentavos\":(1000|500),\"reason\":\"(MD06|BE08|FR01|SL02)\"}");
    }

    @Test
    void aBankWhoseReturnsAreStoppedAtRuntimeReturnsNothingMoreAndResumesWhenAskedAgain() throws Exception {
        String afterResuming = "0000000000000000000000000000000d";
        fakeSwitch.messages(messages(concluded(FIRST, "PAYEE", "SETTLED")));
        bank = new SimulatedBank(FakeSwitch.BANK, client(), new Behaviour(0, 0, 0, 0, Mode.UP, 0), metrics, 1);
        bank.returnShare(0);
        bank.start();

        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(metrics.scrape())
                                .contains(
                                        "pagora_simulator_outcomes_total{bank=\"10002222\",role=\"PAYEE\",status=\"SETTLED\"} 1.0"));
        bank.returnShare(1);
        fakeSwitch.later(messages(concluded(afterResuming, "PAYEE", "SETTLED")));

        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(metrics.scrape())
                        .contains("pagora_simulator_returns_total{bank=\"10002222\",status=\"201\"} 1.0"));
        assertThat(fakeSwitch.returnRequests())
                .as("the payment concluded while returns were stopped is not returned")
                .singleElement()
                .asString()
                .startsWith("/payments/" + afterResuming + "/returns");
        assertThatThrownBy(() -> bank.returnShare(1.01)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReportingBankReportsItsCustomersSettledPaymentsAndAnalysesTheReportsAgainstItsOwn() throws Exception {
        String reportOnOurs = "0000000000000000000000000000aa00";
        fakeSwitch.messages(messages(
                concluded(FIRST, "PAYER", "SETTLED"),
                concluded(SECOND, "PAYER", "REJECTED"),
                concluded("0000000000000000000000000000000c", "PAYEE", "SETTLED"),
                """
                {"type":"InfractionReportNotice","id":"report-r-open-payee","paymentId":"%s","reportId":"%s",
                 "role":"PAYEE","status":"OPEN","reason":"FRAUD","amountCentavos":1000,"heldCentavos":1000}""".formatted(SECOND, reportOnOurs),
                """
                {"type":"InfractionReportNotice","id":"report-r-rejected-payer","paymentId":"%s","reportId":"%s",
                 "role":"PAYER","status":"REJECTED","reason":"FRAUD","amountCentavos":1000,"heldCentavos":0}""".formatted(FIRST, "0000000000000000000000000000bb00"),
                """
                {"type":"InfractionReportNotice","id":"report-r-accepted-payer","paymentId":"%s","reportId":"%s",
                 "role":"PAYER","status":"ACCEPTED","reason":"FRAUD","amountCentavos":1000,"heldCentavos":900}""".formatted(FIRST, "0000000000000000000000000000cc00")));
        SwitchClient client =
                new SwitchClient(fakeSwitch.uri(), FakeSwitch.BANK, SSLContext.getDefault(), Duration.ofSeconds(5));
        bank = new SimulatedBank(
                FakeSwitch.BANK, client, new Behaviour(1, 0, 0, 0, Mode.UP, 0), metrics, 0, new FraudDesk.Med(1, 1));
        bank.start();

        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(fakeSwitch.medRequests()).hasSize(3));
        assertThat(fakeSwitch.medRequests())
                .as("a report on its customer's settled payment only; an analysis of the open report on its own; the"
                        + " refund of its accepted report, not of its rejected one")
                .containsExactlyInAnyOrder(
                        "/infraction-reports report-" + FIRST + " {\"paymentId\":\"" + FIRST
                                + "\",\"reason\":\"FRAUD\",\"details\":\"reported by the bank simulator\"}",
                        "/infraction-reports/" + reportOnOurs + "/analysis null {\"decision\":\"ACCEPT\"}",
                        "/infraction-reports/0000000000000000000000000000cc00/refund null {}");
        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(metrics.scrape())
                                .contains(
                                        "pagora_simulator_med_calls_total{bank=\"10002222\",call=\"report\",status=\"201\"} 1.0",
                                        "pagora_simulator_med_calls_total{bank=\"10002222\",call=\"accept\",status=\"200\"} 1.0"));
    }

    @Test
    void aMessageOfAnUnknownTypeIsCountedAndOtherwiseIgnored() throws Exception {
        fakeSwitch.messages(messages("{\"type\":\"SomethingNew\",\"id\":\"new-1\",\"paymentId\":\"" + FIRST + "\"}"));

        start(new Behaviour(1, 0, 0, 0, Mode.UP, 0), 0);

        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(metrics.scrape())
                        .contains("pagora_simulator_unknown_messages_total{bank=\"10002222\"} 1.0"));
        assertThat(fakeSwitch.answerCalls().poll(300, TimeUnit.MILLISECONDS)).isNull();
    }

    private void start(Behaviour behaviour, double returnShare) throws Exception {
        bank = new SimulatedBank(FakeSwitch.BANK, client(), behaviour, metrics, returnShare);
        bank.start();
    }

    private SwitchClient client() throws Exception {
        return new SwitchClient(fakeSwitch.uri(), FakeSwitch.BANK, SSLContext.getDefault(), Duration.ofSeconds(5));
    }

    /** The next {@code count} answers the switch received, over however many calls. */
    private List<String> answers(int count) throws InterruptedException {
        List<String> answers = new ArrayList<>();
        while (answers.size() < count) {
            String answer = fakeSwitch.answers().poll(10, TimeUnit.SECONDS);
            assertThat(answer).as("answer %d of %d", answers.size() + 1, count).isNotNull();
            answers.add(answer);
        }
        return answers;
    }

    private static String messages(String... messages) {
        return "{\"messages\":[" + String.join(",", messages) + "]}";
    }

    private static String instruction(String paymentId) {
        return instruction(paymentId, null);
    }

    private static String instruction(String paymentId, String originalPaymentId) {
        return """
                {"type":"PaymentInstruction","id":"instruction-%1$s","paymentId":"%1$s","amountCentavos":1000,
                 "acceptedAt":"%2$s","answerBy":"%3$s","originalPaymentId":%4$s,"returnReason":null}""".formatted(
                        paymentId,
                        Instant.now(),
                        Instant.now().plusSeconds(5),
                        originalPaymentId == null ? "null" : "\"" + originalPaymentId + "\"");
    }

    private static String concluded(String paymentId, String role, String status) {
        return """
                {"type":"PaymentConcluded","id":"outcome-%1$s-%2$s","paymentId":"%1$s","role":"%3$s",
                 "status":"%4$s","reason":"","amountCentavos":1000,"occurredAt":"%5$s"}""".formatted(paymentId, role.toLowerCase(Locale.ROOT), role, status, Instant.now());
    }
}
