package io.pagora.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON this bank writes is what the switch accepts, and it reads what the switch sends (docs/participants.md). */
class ProtocolJsonTest {

    private static final String PAID = "01a21a0c061daa909fd6699a6b441d00";
    private static final String REFUSED = "01a21a0c061daa909fd6699a6b442e00";

    @Test
    void aBatchOfAnswersIsTheProtocolsBodyAcceptanceWithoutAReason() {
        String json = ProtocolJson.answers(
                List.of(ProtocolJson.Answer.accept(PAID), ProtocolJson.Answer.refuse(REFUSED, "AC06")));

        assertThat(json)
                .isEqualTo("{\"answers\":[{\"paymentId\":\"" + PAID + "\",\"decision\":\"ACCEPT\"},"
                        + "{\"paymentId\":\"" + REFUSED + "\",\"decision\":\"REFUSE\",\"reason\":\"AC06\"}]}");
    }

    @Test
    void aReturnRequestNamesItsAmountAndReason() {
        assertThat(ProtocolJson.returnRequest(1500, "MD06")).isEqualTo("{\"amountCentavos\":1500,\"reason\":\"MD06\"}");
    }

    @Test
    void anInstructionAndAnOutcomeAreReadWithTheirFieldsAndUnknownFieldsIgnored() {
        String body = """
                {"messages":[
                 {"type":"PaymentInstruction","id":"instruction-%1$s","paymentId":"%1$s",
                  "endToEndId":"E10001111202611262252Xq3vR8sT1aB","payerAccountId":"0400000000a98ac70001a971ef7cc0aa",
                  "payeeAccountId":"040000000153158e0015ed855b22e6c1","amountCentavos":1000,
                  "acceptedAt":"2026-11-26T22:52:00.374Z","answerBy":"2026-11-26T22:52:06.410Z",
                  "originalPaymentId":"%2$s","returnReason":"MD06","someFieldOfLater":{"x":1}},
                 {"type":"PaymentConcluded","id":"outcome-%1$s-payee","paymentId":"%1$s","role":"PAYEE",
                  "status":"SETTLED","reason":"","amountCentavos":1000,"occurredAt":"2026-11-26T22:52:00.910Z"}]}
                """.formatted(PAID, REFUSED);

        List<SwitchClient.Message> messages = ProtocolJson.messages(body.getBytes(StandardCharsets.UTF_8));

        assertThat(messages)
                .containsExactly(
                        new SwitchClient.Message(
                                "PaymentInstruction",
                                "instruction-" + PAID,
                                PAID,
                                null,
                                null,
                                "2026-11-26T22:52:00.374Z",
                                1000,
                                REFUSED,
                                null,
                                "MD06"),
                        new SwitchClient.Message(
                                "PaymentConcluded",
                                "outcome-" + PAID + "-payee",
                                PAID,
                                "PAYEE",
                                "SETTLED",
                                null,
                                1000,
                                null,
                                null,
                                null));
    }

    @Test
    void aMessageOfAnUnknownTypeIsReadWithoutTheFieldsItLacks() {
        String body = "{\"messages\":[{\"type\":\"SomethingNew\",\"id\":\"new-1\",\"paymentId\":\"" + PAID + "\"}]}";

        assertThat(ProtocolJson.messages(body.getBytes(StandardCharsets.UTF_8)))
                .containsExactly(
                        new SwitchClient.Message("SomethingNew", "new-1", PAID, null, null, null, 0, null, null, null));
    }

    @Test
    void aReportOnAPaymentToTheBanksCustomerIsReadWithItsId() {
        String body = "{\"messages\":[{\"type\":\"InfractionReportNotice\",\"id\":\"report-r-open-payee\","
                + "\"paymentId\":\"" + PAID + "\",\"reportId\":\"" + REFUSED + "\",\"role\":\"PAYEE\","
                + "\"status\":\"OPEN\",\"reason\":\"FRAUD\",\"amountCentavos\":700,\"heldCentavos\":700}]}";

        assertThat(ProtocolJson.messages(body.getBytes(StandardCharsets.UTF_8)))
                .containsExactly(new SwitchClient.Message(
                        "InfractionReportNotice",
                        "report-r-open-payee",
                        PAID,
                        "PAYEE",
                        "OPEN",
                        null,
                        700,
                        null,
                        REFUSED,
                        null));
        assertThat(ProtocolJson.analysis(true)).isEqualTo("{\"decision\":\"ACCEPT\"}");
        assertThat(ProtocolJson.analysis(false)).startsWith("{\"decision\":\"REJECT\",\"reason\":");
        assertThat(ProtocolJson.reportRequest(PAID)).startsWith("{\"paymentId\":\"" + PAID + "\",\"reason\":\"FRAUD\"");
    }

    @Test
    void aBodyWithoutMessagesHoldsNone() {
        assertThat(ProtocolJson.messages("{}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void eachResultIsTheStateOrTheProblemSlugOfTheAnswerAtItsIndex() {
        String body = """
                {"results":[
                 {"index":0,"paymentId":"%1$s","status":"SETTLED"},
                 {"index":1,"paymentId":"%2$s","status":"REJECTED"},
                 {"index":2,"paymentId":"%1$s","problem":{"type":"https://pagora.io/problems/verdict-pending",
                  "title":"Verdict pending","status":503,"detail":"stored"}},
                 {"index":3,"paymentId":"%2$s","problem":{"type":"https://pagora.io/problems/answer-after-expiry",
                  "status":410}}]}
                """.formatted(PAID, REFUSED);

        assertThat(ProtocolJson.verdicts(body, 4))
                .containsExactly(
                        new ProtocolJson.Verdict(0, "SETTLED", true),
                        new ProtocolJson.Verdict(1, "REJECTED", true),
                        new ProtocolJson.Verdict(2, "verdict-pending", false),
                        new ProtocolJson.Verdict(3, "answer-after-expiry", false));
    }

    @Test
    void resultsAreMatchedByTheirIndexWhateverTheirOrderOfFieldsAndOutsideTheBatchIgnored() {
        String body = "{\"results\":[{\"status\":\"REJECTED\",\"index\":1},{\"paymentId\":\"" + PAID
                + "\",\"index\":0,\"status\":\"SETTLED\"},{\"index\":2,\"status\":\"SETTLED\"}]}";

        assertThat(ProtocolJson.verdicts(body, 2))
                .containsExactly(
                        new ProtocolJson.Verdict(1, "REJECTED", true), new ProtocolJson.Verdict(0, "SETTLED", true));
    }

    @Test
    void aResultWithNeitherStateNorKnownProblemIsUnreadable() {
        String body = "{\"results\":[{\"index\":0},{\"index\":1,\"problem\":{\"type\":\"about:blank\"}}]}";

        assertThat(ProtocolJson.verdicts(body, 2))
                .containsExactly(
                        new ProtocolJson.Verdict(0, ProtocolJson.UNREADABLE, true),
                        new ProtocolJson.Verdict(1, ProtocolJson.UNREADABLE, false));
    }

    @Test
    void aBodyThatIsNotJsonMakesEveryAnswerUnreadable() {
        assertThat(ProtocolJson.verdicts("<html>bad gateway</html>", 2))
                .containsExactly(
                        new ProtocolJson.Verdict(0, ProtocolJson.UNREADABLE, false),
                        new ProtocolJson.Verdict(1, ProtocolJson.UNREADABLE, false));
    }
}
