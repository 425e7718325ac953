package io.pagora.payments.api.adapter.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.payments.api.application.intake.PaymentPublisher;
import io.pagora.service.metrics.LatencyHistograms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Publishes {@link PaymentRequested} to {@link Topics#PAYMENTS_REQUESTED}, keyed by the payer's account
 * (one account's payments stay ordered on one partition), encoded with {@link PaymentEventCodec}.
 *
 * <p>All records are handed to the producer first (it batches them), then all acknowledgements are
 * awaited against one deadline. The producer is idempotent with acks=all (see application.yaml), so a
 * record acknowledged here is on every in-sync replica, and the producer's own retries never duplicate
 * it. When the broker is unreachable, the first send that fails stops the rest from being attempted,
 * so a batch fails in one {@code max.block.ms}, not one per record.
 *
 * <p>Each call is timed as {@value #SEND_TIMER} (sends plus the wait for every acknowledgement), tagged with
 * the endpoint the publisher serves ({@code single} or {@code batch}: one publisher per endpoint).
 */
public final class KafkaPaymentPublisher implements PaymentPublisher {

    private static final Logger log = LoggerFactory.getLogger(KafkaPaymentPublisher.class);

    public static final String SEND_TIMER = "pagora.payments.kafka.send";

    /**
     * Waited beyond the producer's delivery timeout for its final answer (success or failure), which it
     * gives at most {@code delivery.timeout.ms} after each send.
     */
    public static final Duration ANSWER_MARGIN = Duration.ofSeconds(2);

    private final KafkaTemplate<String, byte[]> template;
    private final Duration ackTimeout;
    private final Timer sends;

    /** @param endpoint {@code single} or {@code batch}: the endpoint whose payments this publisher sends */
    public KafkaPaymentPublisher(
            KafkaTemplate<String, byte[]> template, Duration ackTimeout, MeterRegistry meters, String endpoint) {
        Check.that(!ackTimeout.isNegative() && !ackTimeout.isZero(), "ack timeout must be positive: %s", ackTimeout);
        this.template = template;
        this.ackTimeout = ackTimeout;
        this.sends = LatencyHistograms.timer(
                        SEND_TIMER, "Sending a request's payment events until Kafka acknowledged them all")
                .tag("endpoint", endpoint)
                .register(meters);
    }

    @Override
    public List<Publication> publishAll(List<PaymentRequested> events) {
        long started = System.nanoTime();
        try {
            return sendAndAwait(events);
        } finally {
            sends.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Sends every event, then waits for each acknowledgement until its own send instant plus the ack
     * timeout plus {@link #ANSWER_MARGIN}. The producer's {@code delivery.timeout.ms} is the ack timeout
     * (forced in the configuration), and it counts from each send, so by then the producer has given its
     * final answer: the API never answers while the producer may still deliver the record.
     */
    private List<Publication> sendAndAwait(List<PaymentRequested> events) {
        long sendDeadlineNanos = System.nanoTime() + ackTimeout.toNanos();
        List<CompletableFuture<?>> acks = new ArrayList<>(events.size());
        long[] answerDeadlinesNanos = new long[events.size()];
        String sendFailure = null;
        for (int i = 0; i < events.size(); i++) {
            PaymentRequested event = events.get(i);
            long now = System.nanoTime();
            answerDeadlinesNanos[i] = now + ackTimeout.toNanos() + ANSWER_MARGIN.toNanos();
            if (sendFailure == null && now - sendDeadlineNanos >= 0) {
                sendFailure = "not sent within " + ackTimeout;
            }
            if (sendFailure != null) {
                acks.add(CompletableFuture.failedFuture(new NotSent(sendFailure)));
                continue;
            }
            try {
                acks.add(template.send(
                        new ProducerRecord<>(Topics.PAYMENTS_REQUESTED, event.key(), PaymentEventCodec.encode(event))));
                // The producer's delivery timeout starts when send() returns (it may block up to max.block.ms
                // on metadata): the wait for this record's final answer counts from there too.
                answerDeadlinesNanos[i] = System.nanoTime() + ackTimeout.toNanos() + ANSWER_MARGIN.toNanos();
            } catch (RuntimeException e) {
                // Typically metadata unavailable within max.block.ms: the broker is unreachable.
                log.warn("payment event not sent: {}", describe(e));
                sendFailure = "the broker could not be reached";
                acks.add(CompletableFuture.failedFuture(new NotSent(sendFailure)));
            }
        }
        List<Publication> publications = new ArrayList<>(events.size());
        int failed = 0;
        String firstFailure = null;
        for (int i = 0; i < acks.size(); i++) {
            Publication publication = await(acks.get(i), answerDeadlinesNanos[i]);
            String failure = switch (publication) {
                case Publication.Acked ignored -> null;
                case Publication.NotSent notSent -> notSent.reason();
                case Publication.Unconfirmed unconfirmed -> unconfirmed.reason();
            };
            if (failure != null) {
                failed++;
                firstFailure = firstFailure == null ? failure : firstFailure;
            }
            publications.add(publication);
        }
        if (failed > 0) {
            log.warn(
                    "{} of {} payment events not acknowledged by the broker ({})", failed, events.size(), firstFailure);
        }
        return publications;
    }

    private Publication await(CompletableFuture<?> ack, long deadlineNanos) {
        try {
            ack.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new Publication.Acked();
        } catch (TimeoutException e) {
            return new Publication.Unconfirmed("no acknowledgement within " + ackTimeout.plus(ANSWER_MARGIN));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof NotSent notSent) {
                return new Publication.NotSent(notSent.getMessage());
            }
            // A delivery timeout too: the broker may have written the record and lost only the answer.
            log.warn("payment event not acknowledged: {}", describe(cause));
            return new Publication.Unconfirmed("the broker did not acknowledge it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Publication.Unconfirmed("interrupted while waiting for the acknowledgement");
        }
    }

    /** A record this publisher did not hand to the producer; the reason is safe to show a client. */
    private static final class NotSent extends RuntimeException {
        NotSent(String reason) {
            super(reason, null, false, false);
        }
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
