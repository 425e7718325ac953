package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.events.participant.Answer;
import io.pagora.events.participant.RefusalCode;
import io.pagora.payments.api.application.answers.ParticipantAnswers;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.web.ProblemException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A participant's answers read from JSON, each mistake naming its field, and their results written member by member. */
class AnswerJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ID = "0123456789abcdef0123456789abcd00";
    private static final String OTHER_ID = "0123456789abcdef0123456789abce00";

    @Test
    void aBatchOfAnAcceptanceAndARefusalIsReadInOrder() {
        List<Answer> answers = AnswerJson.parseMany(
                json("{\"answers\":[{\"paymentId\":\"" + ID + "\","
                        + "\"decision\":\"ACCEPT\"},{\"paymentId\":\"" + OTHER_ID + "\",\"decision\":\"REFUSE\","
                        + "\"reason\":\"AC03\"}]}"),
                2);
        assertThat(answers).containsExactly(new Answer(ID, true, null), new Answer(OTHER_ID, false, RefusalCode.AC03));
    }

    @Test
    void aBatchWithoutAnswersNamesTheMissingField() {
        Refusal refusal = refusalOf(() -> AnswerJson.parseMany(json("{}"), 10));
        assertThat(refusal.type()).isEqualTo(RefusalReason.MISSING_FIELD);
        assertThat(refusal.field()).isEqualTo("answers");
    }

    @Test
    void aBatchOfTheWrongSizeIsA400InvalidBatchSize() {
        String one = "{\"paymentId\":\"" + ID + "\",\"decision\":\"ACCEPT\"}";
        for (String answers : List.of("[]", "{}", "\"x\"", "[" + one + "," + one + "," + one + "]")) {
            assertThatThrownBy(() -> AnswerJson.parseMany(json("{\"answers\":" + answers + "}"), 2))
                    .as(answers)
                    .isInstanceOfSatisfying(ProblemException.class, problem -> {
                        assertThat(problem.type()).isEqualTo(AnswerJson.INVALID_ANSWERS_BATCH_SIZE);
                        assertThat(problem.field()).isEqualTo("answers");
                        assertThat(problem.getMessage()).isEqualTo("answers must be an array of 1 to 2 answers");
                    });
        }
        assertThat(AnswerJson.INVALID_ANSWERS_BATCH_SIZE.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(AnswerJson.INVALID_ANSWERS_BATCH_SIZE.slug()).isEqualTo(HttpProblems.INVALID_BATCH_SIZE.slug());
    }

    @Test
    void aBatchItemsMistakeNamesItsIndex() {
        Refusal notAnObject = refusalOf(() -> AnswerJson.parseMany(json("{\"answers\":[7]}"), 10));
        assertThat(notAnObject.field()).isEqualTo("answers[0]");
        assertThat(notAnObject.detail()).isEqualTo("must be a JSON object, got a number");

        Refusal badId = refusalOf(() -> AnswerJson.parseMany(
                json("{\"answers\":[{\"paymentId\":\"" + ID + "\"," + "\"decision\":\"ACCEPT\"},{\"paymentId\":\""
                        + ID.toUpperCase() + "\",\"decision\":\"ACCEPT\"}]}"),
                10));
        assertThat(badId.type()).isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(badId.field()).isEqualTo("answers[1].paymentId");

        Refusal badDecision = refusalOf(() -> AnswerJson.parseMany(
                json("{\"answers\":[{\"paymentId\":\"" + ID + "\",\"decision\":\"MAYBE\"}]}"), 10));
        assertThat(badDecision.field()).isEqualTo("answers[0].decision");
    }

    @Test
    void anAcceptanceHasNoReason() {
        Refusal refusal =
                refusalOf(() -> AnswerJson.parseOne(ID, json("{\"decision\":\"ACCEPT\",\"reason\":\"AC03\"}")));
        assertThat(refusal.type()).isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(refusal.field()).isEqualTo("reason");
        assertThat(AnswerJson.parseOne(ID, json("{\"decision\":\"ACCEPT\",\"reason\":null}")))
                .as("null is absent")
                .isEqualTo(new Answer(ID, true, null));
    }

    @Test
    void aRefusalNamesOneReasonOfTheClosedList() {
        Refusal missing = refusalOf(() -> AnswerJson.parseOne(ID, json("{\"decision\":\"REFUSE\"}")));
        assertThat(missing.type()).isEqualTo(RefusalReason.MISSING_FIELD);
        assertThat(missing.field()).isEqualTo("reason");

        Refusal unknown =
                refusalOf(() -> AnswerJson.parseOne(ID, json("{\"decision\":\"REFUSE\",\"reason\":\"XX99\"}")));
        assertThat(unknown.type()).isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(unknown.detail()).startsWith("reason is one of [AC03");

        assertThat(AnswerJson.parseOne(ID, json("{\"decision\":\"REFUSE\",\"reason\":\"AM02\"}")))
                .isEqualTo(new Answer(ID, false, RefusalCode.AM02));
    }

    @Test
    void aDecisionIsRequiredAndCaseSensitive() {
        assertThat(refusalOf(() -> AnswerJson.parseOne(ID, json("{}"))).type()).isEqualTo(RefusalReason.MISSING_FIELD);
        assertThat(refusalOf(() -> AnswerJson.parseOne(ID, json("{\"decision\":\"accept\"}")))
                        .field())
                .isEqualTo("decision");
    }

    @Test
    void thePathsPaymentIdIs32LowercaseHexDigits() {
        assertThat(AnswerJson.pathPaymentId(ID)).isEqualTo(ID);
        for (String bad : List.of(ID.toUpperCase(), ID.substring(1), ID + "0", "g" + ID.substring(1))) {
            Refusal refusal = refusalOf(() -> AnswerJson.pathPaymentId(bad));
            assertThat(refusal.type()).as(bad).isEqualTo(RefusalReason.INVALID_FIELD);
            assertThat(refusal.field()).isEqualTo("paymentId");
        }
    }

    @Test
    void resultsAreWrittenIndexedInRequestOrderMemberByMember() {
        AnswerJson.Results results = AnswerJson.results(List.of(
                new ParticipantAnswers.Result.Applied(ID, "SETTLED"),
                new ParticipantAnswers.Result.Refused(OTHER_ID, Refusal.of(RefusalReason.CONFLICTING_ANSWER, "no"))));
        assertThat(JSON.writeValueAsString(results))
                .isEqualTo("{\"results\":["
                        + "{\"index\":0,\"paymentId\":\"" + ID + "\",\"status\":\"SETTLED\"},"
                        + "{\"index\":1,\"paymentId\":\"" + OTHER_ID + "\",\"problem\":{\"type\":\""
                        + RefusalReason.CONFLICTING_ANSWER.uri() + "\",\"title\":\""
                        + RefusalReason.CONFLICTING_ANSWER.title
                        + "\",\"status\":409,\"detail\":\"no\"}}]}");
    }

    @Test
    void aSingleAnswersStateIsItsPaymentIdThenItsStatus() {
        assertThat(JSON.writeValueAsString(new AnswerJson.State(ID, "REJECTED")))
                .isEqualTo("{\"paymentId\":\"" + ID + "\",\"status\":\"REJECTED\"}");
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static Refusal refusalOf(Runnable parse) {
        try {
            parse.run();
        } catch (RefusalException e) {
            return e.problem();
        }
        throw new AssertionError("expected a refusal");
    }
}
