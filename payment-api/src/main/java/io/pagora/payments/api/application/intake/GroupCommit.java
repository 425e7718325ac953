package io.pagora.payments.api.application.intake;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.batching.GroupCommits;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;

/**
 * Group commit for single payments: concurrent {@code POST /payments} calls are queued, and each of a few
 * committer threads takes whatever is queued (up to {@code batchMax}) as one {@link PaymentIntake#acceptAll}:
 * one SQL statement for all their keys and one wait for all their Kafka acknowledgements, instead of one of
 * each per request. There is no artificial delay: like TigerBeetle's client, a batch is what accumulated
 * while the previous ones were in flight, so an idle API answers one request as fast as before and a busy
 * one amortizes its round trips over many.
 *
 * <p>Every order keeps its own caller and its own outcome (acceptAll decides each independently; two concurrent
 * uses of one key by one caller in one batch name the same payment, the later one as a replay; the same key
 * used by two callers is two keys). Bounded everywhere: the queue refuses
 * beyond {@code queueMax} with {@code overloaded} (429) at once, and a caller waits at most
 * {@code waitMax}; past that its outcome is unknown and it is told to retry with the same key, which is
 * safe (the key names the same payment).
 */
public final class GroupCommit implements AutoCloseable {

    private final GroupCommits<Order, Outcome> commits;

    public GroupCommit(PaymentIntake intake, int committers, int batchMax, int queueMax, Duration waitMax) {
        Check.that(batchMax >= 1 && batchMax <= 4094, "a group fits one ledger lookup: 1..4094 payments");
        this.commits = new GroupCommits<>(
                "payment-group-commit",
                intake::acceptAll,
                GroupCommits.answers(
                        detail -> new Outcome.Rejected(Refusal.of(
                                RefusalReason.OVERLOADED, "payments: " + detail + ": retry it after Retry-After")),
                        // Its group may still be committed and published after this caller gave up.
                        detail -> PaymentIntake.unknown(null, detail),
                        detail -> new Outcome.Rejected(Refusal.of(RefusalReason.OVERLOADED, detail + ": retry it"))),
                () -> {},
                committers,
                batchMax,
                queueMax,
                waitMax);
    }

    /**
     * One payment of {@code caller}, answered when its group is committed (or refused at once when the queue is
     * full). A group mixes callers: each order keeps its own, for its access check and its key's scope.
     */
    public Outcome accept(Caller caller, IdempotencyKey key, PaymentRequest request) {
        return accept(Order.of(caller, key, request));
    }

    /** One order, parsed: by account or by key. */
    public Outcome accept(Order order) {
        Check.that(order.problem() == null, "a parsed order");
        return commits.submit(order);
    }

    /** Payments waiting for a committer (a gauge). */
    public int queued() {
        return commits.queued();
    }

    @Override
    public void close() {
        commits.close();
    }
}
