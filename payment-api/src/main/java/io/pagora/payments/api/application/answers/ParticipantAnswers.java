package io.pagora.payments.api.application.answers;

import io.pagora.events.participant.Answer;
import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.Verdict;
import io.pagora.events.participant.VerdictBatch;
import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.BankId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A payee bank's answers, one call's worth: stored durably for clearing, which applies them in batches, then each
 * answer gets the ledger's verdict. The answer is idempotent (the same again gets the same verdict); what cannot be
 * known in time is said as such ({@link RefusalReason#VERDICT_PENDING}: send it again), never guessed.
 */
public final class ParticipantAnswers {

    /** The verdict on one answer: the payment's state, or why the answer moved nothing. */
    public sealed interface Result {
        record Applied(String paymentId, String status) implements Result {}

        record Refused(String paymentId, Refusal refusal) implements Result {}
    }

    private final AnswerChannel channel;
    private final Duration verdictTimeout;

    public ParticipantAnswers(AnswerChannel channel, Duration verdictTimeout) {
        this.channel = channel;
        this.verdictTimeout = verdictTimeout;
    }

    /** One result per answer, in order. */
    public List<Result> answer(BankId bank, List<Answer> answers) {
        Check.that(!answers.isEmpty(), "a call carries answers");
        AnswerBatch batch = new AnswerBatch(UUID.randomUUID().toString(), bank.toString(), answers);
        AnswerChannel.Submitted submitted = channel.submit(batch);
        long deadline = System.nanoTime() + verdictTimeout.toNanos();
        try {
            submitted.stored().get(verdictTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            submitted.verdicts().cancel(false);
            return all(
                    answers,
                    Refusal.of(
                            RefusalReason.BROKER_UNAVAILABLE,
                            "the answer could not be stored: nothing was received; send it again"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while storing answers", e);
        }
        try {
            VerdictBatch verdicts =
                    submitted.verdicts().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            Check.that(verdicts.verdicts().size() == answers.size(), "one verdict per answer");
            List<Result> results = new ArrayList<>(answers.size());
            for (int i = 0; i < answers.size(); i++) {
                results.add(resultOf(answers.get(i), verdicts.verdicts().get(i), bank));
            }
            return results;
        } catch (ExecutionException | TimeoutException e) {
            submitted.verdicts().cancel(false);
            return all(
                    answers,
                    Refusal.of(
                            RefusalReason.VERDICT_PENDING,
                            "the answer is stored and will be applied;"
                                    + " its verdict did not come back within " + verdictTimeout.toSeconds()
                                    + " s: send it again"
                                    + " (the same answer gets the same verdict)"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for verdicts", e);
        }
    }

    private static Result resultOf(Answer answer, Verdict verdict, BankId bank) {
        String id = answer.paymentId();
        return switch (verdict.code()) {
            case APPLIED -> new Result.Applied(id, verdict.status());
            case CONFLICT ->
                new Result.Refused(
                        id,
                        Refusal.of(
                                RefusalReason.CONFLICTING_ANSWER,
                                "payment " + id + " is already " + verdict.status()
                                        + " by a different answer; this one moved nothing"));
            case EXPIRED ->
                new Result.Refused(
                        id,
                        Refusal.of(
                                RefusalReason.ANSWER_AFTER_EXPIRY,
                                "payment " + id
                                        + " expired before the answer arrived: the reservation lapsed and nothing moved"));
            case UNKNOWN_PAYMENT ->
                new Result.Refused(
                        id,
                        Refusal.of(
                                RefusalReason.UNKNOWN_PAYMENT,
                                "no payment " + id + " awaits an answer from participant " + bank));
            case UNRESOLVED ->
                new Result.Refused(
                        id,
                        Refusal.of(
                                RefusalReason.PAYMENT_UNRESOLVED,
                                "payment " + id
                                        + " could not be resolved (the operator is alerted); the answer moved nothing"));
        };
    }

    private static List<Result> all(List<Answer> answers, Refusal refusal) {
        return answers.stream()
                .<Result>map(answer -> new Result.Refused(answer.paymentId(), refusal))
                .toList();
    }
}
