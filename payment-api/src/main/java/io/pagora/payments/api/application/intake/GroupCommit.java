package io.pagora.payments.api.application.intake;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    private record Pending(Order order, CompletableFuture<Outcome> outcome) {}

    private final PaymentIntake intake;
    private final int batchMax;
    private final Duration waitMax;
    private final BlockingQueue<Pending> queue;
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean closed;

    public GroupCommit(PaymentIntake intake, int committers, int batchMax, int queueMax, Duration waitMax) {
        Check.that(committers >= 1 && committers <= 64, "1..64 committers");
        Check.that(batchMax >= 1 && batchMax <= 4094, "a group fits one ledger lookup: 1..4094 payments");
        Check.that(queueMax >= batchMax && queueMax <= 1_000_000, "queue bound in batchMax..1000000");
        Check.that(waitMax.toMillis() > 0, "a positive wait bound");
        this.intake = intake;
        this.batchMax = batchMax;
        this.waitMax = waitMax;
        this.queue = new ArrayBlockingQueue<>(queueMax);
        for (int i = 0; i < committers; i++) {
            this.committers.add(Thread.ofPlatform()
                    .daemon()
                    .name("payment-group-commit-" + i)
                    .start(this::commitLoop));
        }
    }

    /**
     * One payment of {@code caller}, answered when its group is committed (or refused at once when the queue is
     * full). A group mixes callers: each order keeps its own, for its access check and its key's scope.
     */
    public Outcome accept(Caller caller, IdempotencyKey key, PaymentRequest request) {
        Check.that(!closed, "group commit is open");
        Pending pending = new Pending(Order.of(caller, key, request), new CompletableFuture<>());
        if (!queue.offer(pending)) {
            return new Outcome.Rejected(
                    Refusal.of(
                            RefusalReason.OVERLOADED,
                            "more than " + (queue.size())
                                    + " payments are waiting to be accepted; nothing was done with this one: retry it after Retry-After"));
        }
        try {
            // orTimeout, not get(timeout): the profile showed a timed park per request (a timer thread woken
            // for every call) among payment-api's largest costs; one shared delay queue is cheaper.
            return pending.outcome()
                    .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the payment's group commit", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException) {
                // Its group may still be committed and published after this caller gave up.
                return PaymentIntake.unknown(null, "no answer within " + waitMax);
            }
            // acceptAll failed as a whole (a database outage, say): each caller sees what a lone request would.
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Payments waiting for a committer (a gauge). */
    public int queued() {
        return queue.size();
    }

    private void commitLoop() {
        List<Pending> group = new ArrayList<>(batchMax);
        while (!closed) {
            group.clear();
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                group.add(first);
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(group, batchMax - 1);
            commit(group);
        }
    }

    private void commit(List<Pending> group) {
        // A caller whose wait already ended was told its outcome is unknown and will retry with its key:
        // committing it now would spend a round trip on an answer nobody reads.
        group.removeIf(pending -> pending.outcome().isDone());
        if (group.isEmpty()) {
            return;
        }
        List<Order> orders = new ArrayList<>(group.size());
        for (Pending pending : group) {
            orders.add(pending.order());
        }
        try {
            List<Outcome> outcomes = intake.acceptAll(orders);
            Check.that(outcomes.size() == group.size(), "one outcome per order");
            for (int i = 0; i < group.size(); i++) {
                group.get(i).outcome().complete(outcomes.get(i));
            }
        } catch (Throwable failure) {
            // Whatever failed, every caller of the group is answered and the committer lives on: a committer
            // that died would leave each later caller waiting out its whole deadline.
            for (Pending pending : group) {
                pending.outcome().completeExceptionally(failure);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread committer : committers) {
            committer.interrupt();
        }
        Pending pending;
        while ((pending = queue.poll()) != null) {
            pending.outcome()
                    .complete(new Outcome.Rejected(Refusal.of(
                            RefusalReason.OVERLOADED,
                            "the service is shutting down; nothing was done with this payment: retry it")));
        }
    }
}
