package io.pagora.payments.api.adapter.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.pagora.events.participant.Answer;
import io.pagora.events.participant.RefusalCode;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.answers.ParticipantAnswers;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.web.ProblemException;
import io.pagora.service.web.ProblemType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * A participant's answers as JSON (docs/participants.md, "Answers"): the bodies of {@code POST …/answers} and
 * {@code PUT …/payments/{id}/answer} read into {@link Answer}s, and their 200 bodies. Members are written in the
 * order declared here.
 */
final class AnswerJson {

    /**
     * The answers' batch of the wrong size: 400, as docs/participants.md promises the banks (the payments' batch
     * answers the same type with 422, as docs/api.md says).
     */
    static final ProblemType INVALID_ANSWERS_BATCH_SIZE = new ProblemType(
            HttpProblems.INVALID_BATCH_SIZE.slug(), HttpProblems.INVALID_BATCH_SIZE.title(), HttpStatus.BAD_REQUEST);

    /** The 200 body of {@code POST …/answers}: one result per answer, in request order. */
    record Results(List<Result> results) {}

    /** One answer's result: applied (the payment's state) or refused (the problem that says why). */
    sealed interface Result {}

    @JsonPropertyOrder({"index", "paymentId", "status"})
    record Applied(int index, String paymentId, String status) implements Result {}

    /** {@code problem} holds the members of a problem+json document. */
    @JsonPropertyOrder({"index", "paymentId", "problem"})
    record Refused(int index, String paymentId, Map<String, Object> problem) implements Result {}

    /** The 200 body of {@code PUT …/payments/{id}/answer}: the payment's state after the answer. */
    @JsonPropertyOrder({"paymentId", "status"})
    record State(String paymentId, String status) {}

    private AnswerJson() {}

    /**
     * The body of {@code POST …/answers}: {@code {"answers":[…]}}, 1 to {@code answersMax} objects.
     *
     * @throws RefusalException naming the first bad field ({@link ProblemException} for the batch's size)
     */
    static List<Answer> parseMany(JsonNode body, int answersMax) {
        JsonFields fields = new JsonFields(body);
        JsonNode items = fields.node("answers");
        if (items == null) {
            throw fields.missing("answers");
        }
        if (!items.isArray() || items.isEmpty() || items.size() > answersMax) {
            throw new ProblemException(
                    INVALID_ANSWERS_BATCH_SIZE,
                    "answers",
                    "answers must be an array of 1 to " + answersMax + " answers");
        }
        List<Answer> parsed = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw new RefusalException(Refusal.ofField(
                        RefusalReason.INVALID_FIELD,
                        "answers[" + i + "]",
                        "must be a JSON object, got " + JsonFields.typeOf(item)));
            }
            JsonFields itemFields = new JsonFields(item);
            parsed.add(parse(
                    itemFields,
                    paymentId(itemFields.requiredString("paymentId"), "answers[" + i + "].paymentId"),
                    "answers[" + i + "]."));
        }
        return parsed;
    }

    /**
     * The path's payment id of {@code PUT …/payments/{paymentId}/answer}, checked before its body is read.
     *
     * @throws RefusalException if it is not a payment id
     */
    static String pathPaymentId(String paymentId) {
        return paymentId(paymentId, "paymentId");
    }

    /**
     * The body of {@code PUT …/payments/{paymentId}/answer}, for the path's payment id ({@link #pathPaymentId}).
     *
     * @throws RefusalException naming the first bad field
     */
    static Answer parseOne(String paymentId, JsonNode body) {
        return parse(new JsonFields(body), paymentId, "");
    }

    /** The results of {@code POST …/answers}, indexed in request order. */
    static Results results(List<ParticipantAnswers.Result> verdicts) {
        List<Result> results = new ArrayList<>(verdicts.size());
        for (int i = 0; i < verdicts.size(); i++) {
            results.add(
                    switch (verdicts.get(i)) {
                        case ParticipantAnswers.Result.Applied applied ->
                            new Applied(i, applied.paymentId(), applied.status());
                        case ParticipantAnswers.Result.Refused refused ->
                            new Refused(i, refused.paymentId(), Problems.embedded(refused.refusal()));
                    });
        }
        return new Results(results);
    }

    /** An answer's decision: ACCEPT without a reason, or REFUSE with one of the closed list of codes. */
    private static Answer parse(JsonFields fields, String paymentId, String prefix) {
        String decision = fields.requiredString("decision");
        String reason = fields.optionalString("reason");
        if ("ACCEPT".equals(decision)) {
            if (reason != null) {
                throw new RefusalException(
                        Refusal.ofField(RefusalReason.INVALID_FIELD, prefix + "reason", "an acceptance has no reason"));
            }
            return new Answer(paymentId, true, null);
        }
        if (!"REFUSE".equals(decision)) {
            throw new RefusalException(
                    Refusal.ofField(RefusalReason.INVALID_FIELD, prefix + "decision", "decision is ACCEPT or REFUSE"));
        }
        if (reason == null) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.MISSING_FIELD,
                    prefix + "reason",
                    "a refusal names its reason, one of " + Arrays.toString(RefusalCode.values())));
        }
        try {
            return new Answer(paymentId, false, RefusalCode.valueOf(reason));
        } catch (IllegalArgumentException e) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    prefix + "reason",
                    "reason is one of " + Arrays.toString(RefusalCode.values())));
        }
    }

    /** A payment id as the switch writes it: 32 lowercase hexadecimal digits. */
    private static String paymentId(String text, String field) {
        if (text == null || !Id128.isHexDigits32(text) || !text.equals(text.toLowerCase(Locale.ROOT))) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD, field, "a payment id is 32 lowercase hexadecimal digits"));
        }
        return text;
    }
}
