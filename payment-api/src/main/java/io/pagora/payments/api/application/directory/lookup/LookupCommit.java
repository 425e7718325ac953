package io.pagora.payments.api.application.directory.lookup;

import io.pagora.payments.api.application.batching.GroupCommits;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Answer;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Ask;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.time.Duration;
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

    public LookupCommit(LookingUpKeys lookups, int committers, int batchMax, int queueMax, Duration waitMax) {
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
