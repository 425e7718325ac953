package io.pagora.events.participant;

import java.util.List;

/**
 * One record of {@code Topics.PARTICIPANT_ANSWERS}: the answers of one call of one bank, keyed by the bank's ISPB.
 * {@code requestId} names the call; clearing replies with one {@link VerdictBatch} under the same id.
 */
public record AnswerBatch(String requestId, String bank, List<Answer> answers) {

    public AnswerBatch {
        if (requestId == null || bank == null || answers == null || answers.isEmpty()) {
            throw new IllegalArgumentException("an answer batch names its call and bank and holds answers");
        }
        answers = List.copyOf(answers);
    }
}
