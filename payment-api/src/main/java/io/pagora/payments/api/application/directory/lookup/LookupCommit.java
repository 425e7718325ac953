package io.pagora.payments.api.application.directory.lookup;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.batching.GroupCommits;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Answer;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Ask;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for look-ups, as the intake's for payments ({@link GroupCommits}): concurrent look-ups queue, and each
 * committer thread takes what accumulated (up to {@code batchMax}) as one {@link LookingUpKeys#lookUpAll}, one store
 * transaction. Past {@code queueMax} a look-up is refused at once (429 overloaded), and a caller waits at most
 * {@code waitMax}. An idle committer applies the tokens paid look-ups gave back.
 */
public final class LookupCommit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LookupCommit.class);

    private final GroupCommits<Ask, Answer> commits;
    private final LookingUpKeys lookups;
    /** Batches of look-ups in their transaction at once, switch-instance-wide: each holds a connection. */
    private final Semaphore batches;

    public LookupCommit(
            LookingUpKeys lookups, int committers, int batchMax, int queueMax, Duration waitMax, int batchesMax) {
        Check.that(batchesMax >= 1 && batchesMax <= 64, "1..64 look-up batches at once: %d", batchesMax);
        this.lookups = lookups;
        this.batches = new Semaphore(batchesMax);
        this.commits = new GroupCommits<>(
                "look-up-commit",
                lookups::lookUpAll,
                GroupCommits.answers(
                        detail -> overloaded("look-ups: " + detail),
                        // Nothing is lost: a look-up that answers after its caller gave up reserved an id nobody pays.
                        detail -> overloaded(detail),
                        detail -> overloaded(detail)),
                () -> flushRefunds(lookups),
                committers,
                batchMax,
                queueMax,
                waitMax);
    }

    /** One look-up, answered when its batch is committed; refused at once when the queue is full. */
    public Answer lookUp(Ask ask) {
        return commits.submit(ask);
    }

    /**
     * A bank's batch of look-ups, already grouped by its caller: one store transaction of its own, no queue. Empty
     * when {@code batchesMax} batches are in their transactions already: nothing was looked up, no token spent.
     */
    public Optional<List<Answer>> lookUpBatch(List<Ask> asks) {
        if (!batches.tryAcquire()) {
            return Optional.empty();
        }
        try {
            return Optional.of(lookups.lookUpAll(asks));
        } finally {
            batches.release();
        }
    }

    /** The refusal of a batch {@link #lookUpBatch} found no room for. */
    public static Refusal batchesBusy() {
        return Refusal.retryAfter(
                RefusalReason.OVERLOADED,
                1,
                "look-ups: as many batches as this instance takes at once are in their transactions; retry after"
                        + " Retry-After");
    }

    public int queued() {
        return commits.queued();
    }

    private static Answer overloaded(String detail) {
        return new Answer.Limited(
                Refusal.retryAfter(RefusalReason.OVERLOADED, 1, detail + ": retry after Retry-After"));
    }

    private static void flushRefunds(LookingUpKeys lookups) {
        try {
            lookups.flushRefunds();
        } catch (RuntimeException e) {
            // Kept for the next round: the store may be back by then.
            log.warn("look-ups: the tokens paid look-ups gave back could not be applied yet: {}", e.toString());
        }
    }

    @Override
    public void close() {
        commits.close();
    }
}
