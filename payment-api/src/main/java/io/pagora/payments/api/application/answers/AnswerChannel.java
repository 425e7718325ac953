package io.pagora.payments.api.application.answers;

import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.VerdictBatch;
import java.util.concurrent.CompletableFuture;

/**
 * Port: carries one call's answers to clearing durably and brings back clearing's verdicts. The first future
 * completes when the answers are durably stored (a failure: nothing was received); the verdicts follow.
 */
public interface AnswerChannel {

    Submitted submit(AnswerBatch answers);

    record Submitted(CompletableFuture<Void> stored, CompletableFuture<VerdictBatch> verdicts) {}
}
