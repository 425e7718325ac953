package io.pagora.payments.api.application.batching;

import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Group commit: concurrent calls queue their items, and each of a few committer threads takes whatever is queued (up
 * to {@code batchMax}) and commits it as one batch ({@link Committer#commitAll}): one round trip for all, instead of
 * one each. No artificial delay: like TigerBeetle's client, a batch is what accumulated while the previous ones were
 * in flight, so an idle service answers one call as fast as before and a busy one amortizes its round trips.
 *
 * <p>Bounded everywhere: the queue refuses beyond {@code queueMax} at once ({@link Answers#overloaded}), a caller waits
 * at most {@code waitMax} ({@link Answers#timedOut}), and a committer that finds nothing for a while runs the
 * {@code idle} work. Every caller of a batch that failed as a whole sees the failure, as a lone call would.
 *
 * @param <I> what a call submits
 * @param <O> what it is answered
 */
public final class GroupCommits<I, O> implements AutoCloseable {

    /** Commits one batch: one answer per item, in order. */
    @FunctionalInterface
    public interface Committer<I, O> {
        List<O> commitAll(List<I> items);
    }

    /** The answers the queue itself gives, each with a detail for the caller. */
    public interface Answers<O> {
        /** The queue is full: nothing was done with the item. */
        O overloaded(String detail);

        /** No answer within the wait: the item's batch may still be committed. */
        O timedOut(String detail);

        /** The service is stopping: nothing was done with the item. */
        O closing(String detail);
    }

    private record Pending<I, O>(I item, CompletableFuture<O> answer) {}

    private static final long IDLE_POLL_MILLIS = 100;

    private final Committer<I, O> committer;
    private final Answers<O> answers;
    private final Runnable idle;
    private final int batchMax;
    private final Duration waitMax;
    private final BlockingQueue<Pending<I, O>> queue;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    /** @param idle run by a committer that found nothing queued for a while (must not throw) */
    public GroupCommits(
            String name,
            Committer<I, O> committer,
            Answers<O> answers,
            Runnable idle,
            int committers,
            int batchMax,
            int queueMax,
            Duration waitMax) {
        Check.that(committers >= 1 && committers <= 64, "1..64 committers");
        Check.that(batchMax >= 1 && batchMax <= 4096, "1..4096 items a batch");
        Check.that(queueMax >= batchMax && queueMax <= 1_000_000, "queue bound in batchMax..1000000");
        Check.that(waitMax.toMillis() > 0, "a positive wait bound");
        this.committer = committer;
        this.answers = answers;
        this.idle = idle;
        this.batchMax = batchMax;
        this.waitMax = waitMax;
        this.queue = new ArrayBlockingQueue<>(queueMax);
        for (int i = 0; i < committers; i++) {
            threads.add(Thread.ofPlatform().daemon().name(name + "-" + i).start(this::commitLoop));
        }
    }

    /** One item, answered when its batch is committed, or at once when the queue is full. */
    public O submit(I item) {
        Check.that(!closed, "group commit is open");
        Pending<I, O> pending = new Pending<>(item, new CompletableFuture<>());
        if (!queue.offer(pending)) {
            return answers.overloaded("more than " + queue.size() + " are waiting; nothing was done with this one");
        }
        try {
            // orTimeout, not get(timeout): the profile showed a timed park per request (a timer thread woken
            // for every call) among payment-api's largest costs; one shared delay queue is cheaper.
            return pending.answer()
                    .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a group commit", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException) {
                return answers.timedOut("no answer within " + waitMax);
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Items waiting for a committer (a gauge). */
    public int queued() {
        return queue.size();
    }

    private void commitLoop() {
        List<Pending<I, O>> group = new ArrayList<>(batchMax);
        while (!closed) {
            group.clear();
            try {
                Pending<I, O> first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    idle.run();
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

    private void commit(List<Pending<I, O>> group) {
        // A caller whose wait already ended was answered: committing it now would spend a round trip on an answer
        // nobody reads.
        group.removeIf(pending -> pending.answer().isDone());
        if (group.isEmpty()) {
            return;
        }
        List<I> items = new ArrayList<>(group.size());
        for (Pending<I, O> pending : group) {
            items.add(pending.item());
        }
        try {
            List<O> outcomes = committer.commitAll(items);
            Check.that(outcomes.size() == group.size(), "one answer per item");
            for (int i = 0; i < group.size(); i++) {
                group.get(i).answer().complete(outcomes.get(i));
            }
        } catch (Throwable failure) {
            // Whatever failed, every caller of the group is answered and the committer lives on: a committer that
            // died would leave each later caller waiting out its whole deadline.
            for (Pending<I, O> pending : group) {
                pending.answer().completeExceptionally(failure);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread thread : threads) {
            thread.interrupt();
        }
        Pending<I, O> pending;
        while ((pending = queue.poll()) != null) {
            pending.answer().complete(answers.closing("the service is shutting down; nothing was done with this one"));
        }
    }

    /** For answers that are all alike but their detail. */
    public static <O> Answers<O> answers(
            Function<String, O> overloaded, Function<String, O> timedOut, Function<String, O> closing) {
        return new Answers<>() {
            @Override
            public O overloaded(String detail) {
                return overloaded.apply(detail);
            }

            @Override
            public O timedOut(String detail) {
                return timedOut.apply(detail);
            }

            @Override
            public O closing(String detail) {
                return closing.apply(detail);
            }
        };
    }
}
