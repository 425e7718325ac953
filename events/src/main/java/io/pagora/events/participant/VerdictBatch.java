package io.pagora.events.participant;

import java.util.List;

/** One record of {@code Topics.PARTICIPANT_VERDICTS}: the verdicts of one {@link AnswerBatch}, in its order. */
public record VerdictBatch(String requestId, List<Verdict> verdicts) {

    public VerdictBatch {
        verdicts = List.copyOf(verdicts);
    }
}
