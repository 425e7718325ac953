package io.pagora.reporting.adapter.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.Topics;
import io.pagora.reporting.ReportingProperties;
import io.pagora.reporting.application.Projection;
import io.pagora.reporting.domain.EventRules;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.event.ListenerContainerIdleEvent;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.stereotype.Component;

/**
 * The projection's consumer: one call per poll of both payment topics. Decodes every record, projects
 * the valid events in one database transaction, then sends the records it could not use to their
 * dead-letter topics (with the reason in a header) so they never block a partition. A payment request whose outcome
 * is not in the poll is held back until it is ({@link RequestHold}), so that its row is written once, final; the
 * offsets committed after the transaction stop at the oldest request held. Throwing hands the poll to the error
 * handler (retry, see {@link KafkaConfiguration}).
 */
@Component
public class ProjectionListener {

    /** The listener container's id, for starting and stopping it by hand. */
    public static final String LISTENER_ID = "reporting-projection";

    /** How often one event is projected alone before its record is dead-lettered. */
    private static final int ATTEMPTS_ALONE = 2;

    private static final Logger log = LoggerFactory.getLogger(ProjectionListener.class);

    private final Projection projection;
    private final DeadLetterPublishingRecoverer deadLetters;
    private final Counter deadLettered;
    private final ProjectionMetrics metrics;
    private final RequestHolds holds;
    private final LongSupplier nanoTime = System::nanoTime;

    public ProjectionListener(
            Projection projection,
            DeadLetterPublishingRecoverer deadLetters,
            RequestHolds holds,
            MeterRegistry registry,
            Clock clock) {
        this.projection = projection;
        this.holds = holds;
        this.deadLetters = deadLetters;
        this.deadLettered = Counter.builder("pagora.reporting.dead.letters")
                .description("Records sent to a dead-letter topic because they could not be projected")
                .register(registry);
        this.metrics = new ProjectionMetrics(registry, clock);
    }

    // clientIdPrefix: the Kafka client metrics (consumer lag) name the consumers reporting-projection-<n>.
    @KafkaListener(
            id = LISTENER_ID,
            clientIdPrefix = LISTENER_ID,
            groupId = "${pagora.reporting.projection.group-id:" + ReportingProperties.PROJECTION_GROUP + "}",
            topics = {Topics.PAYMENTS_REQUESTED, Topics.PAYMENT_OUTCOMES},
            containerFactory = "projectionContainerFactory",
            batch = "true")
    public void onPoll(List<ConsumerRecord<byte[], byte[]>> records, Consumer<?, ?> consumer) {
        List<RequestHold.Polled<ConsumerRecord<byte[], byte[]>>> polled = new ArrayList<>(records.size());
        List<Rejected> rejected = new ArrayList<>();
        List<PaymentEvent> events = new ArrayList<>(records.size());
        Map<TopicPartition, Long> nextOffsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            nextOffsets.merge(partition, record.offset() + 1, Math::max);
            Optional<String> problem = decode(record, events);
            if (problem.isPresent()) {
                rejected.add(new Rejected(record, DeadLetterConvention.reason(problem.get())));
            } else {
                polled.add(new RequestHold.Polled<>(partition, record.offset(), record, events.getLast()));
            }
        }
        RequestHold<ConsumerRecord<byte[], byte[]>> hold = holds.of(consumer);
        RequestHold.Snapshot<ConsumerRecord<byte[], byte[]>> before = hold.snapshot();
        RequestHold.Release<ConsumerRecord<byte[], byte[]>> release =
                hold.poll(polled, nextOffsets, nanoTime.getAsLong());
        try {
            write(release, rejected, consumer);
        } catch (RuntimeException e) {
            // Nothing the release named was acknowledged: held again as it was, the poll is retried whole.
            hold.restore(before);
            throw e;
        }
        log.debug(
                "projected a poll: {} records, {} events written, {} dead-lettered, {} requests held",
                records.size(),
                release.project().size(),
                rejected.size(),
                hold.heldCount());
    }

    /**
     * The consumer was given nothing for a while: the requests it held long enough are written (ACCEPTED), so that a
     * quiet platform's last payments do not wait for a poll that may not come.
     */
    @EventListener(condition = "event.listenerId.startsWith('" + LISTENER_ID + "')")
    public void onIdle(ListenerContainerIdleEvent event) {
        Consumer<?, ?> consumer = event.getConsumer();
        RequestHold<ConsumerRecord<byte[], byte[]>> hold = consumer == null ? null : holds.existing(consumer);
        if (hold == null || hold.heldCount() == 0) {
            return;
        }
        RequestHold.Snapshot<ConsumerRecord<byte[], byte[]>> before = hold.snapshot();
        RequestHold.Release<ConsumerRecord<byte[], byte[]>> release = hold.idle(nanoTime.getAsLong());
        try {
            write(release, new ArrayList<>(), consumer);
        } catch (RuntimeException e) {
            hold.restore(before);
            log.warn(
                    "writing the requests held on an idle consumer failed; tried again when next idle: {}",
                    KafkaConfiguration.reason(e));
        }
    }

    /** Writes what a release names in one transaction, dead-letters what cannot be, then acknowledges it. */
    private void write(
            RequestHold.Release<ConsumerRecord<byte[], byte[]>> release,
            List<Rejected> rejected,
            Consumer<?, ?> consumer) {
        List<Decoded> decoded = new ArrayList<>(release.project().size());
        for (RequestHold.Polled<ConsumerRecord<byte[], byte[]>> one : release.project()) {
            decoded.add(new Decoded(one.record(), one.event()));
        }
        projectIsolating(decoded, rejected);
        for (Rejected bad : rejected) {
            log.warn(
                    "dead-lettering {}-{}@{}: {}",
                    bad.record.topic(),
                    bad.record.partition(),
                    bad.record.offset(),
                    bad.reason);
            try {
                deadLetters.accept(bad.record, consumer, new UnprojectableRecordException(bad.reason));
            } catch (RuntimeException e) {
                throw new DeadLetterUnavailableException(
                        "could not dead-letter " + bad.record.topic() + "-" + bad.record.partition() + "@"
                                + bad.record.offset(),
                        e);
            }
            deadLettered.increment();
        }
        if (!release.commit().isEmpty()) {
            consumer.commitSync(release.commit());
        }
    }

    /**
     * Projects the events in one transaction. If that fails for a reason that says nothing about the
     * database being away (a record PostgreSQL refuses, a bug one event triggers), the events are
     * halved and each half projected in its own transaction, down to single events: only those that
     * fail alone, {@link #ATTEMPTS_ALONE} times, are dead-lettered, and the rest of the poll is
     * projected. A transient failure is rethrown and the container retries the whole poll. Projection
     * is idempotent, so projecting a half again repeats nothing. Bounded: at most 2n − 1 transactions
     * plus the attempts alone, at a halving depth of log₂ n.
     */
    private void projectIsolating(List<Decoded> decoded, List<Rejected> rejected) {
        if (decoded.isEmpty()) {
            return;
        }
        try {
            Projection.Outcome outcome =
                    projection.project(decoded.stream().map(Decoded::event).toList());
            // project() returns after its transaction committed: what it made visible is visible now.
            metrics.committed(outcome);
            return;
        } catch (RuntimeException e) {
            if (KafkaConfiguration.isTransient(e)) {
                throw e;
            }
            if (decoded.size() == 1) {
                projectAlone(decoded.getFirst(), rejected, e);
                return;
            }
            log.warn(
                    "projecting {} events failed ({}); halving them to find the records that cause it",
                    decoded.size(),
                    KafkaConfiguration.reason(e));
        }
        int half = decoded.size() / 2;
        projectIsolating(decoded.subList(0, half), rejected);
        projectIsolating(decoded.subList(half, decoded.size()), rejected);
    }

    private void projectAlone(Decoded one, List<Rejected> rejected, RuntimeException first) {
        RuntimeException last = first;
        for (int attempt = 2; attempt <= ATTEMPTS_ALONE; attempt++) {
            try {
                metrics.committed(projection.project(List.of(one.event())));
                return;
            } catch (RuntimeException e) {
                if (KafkaConfiguration.isTransient(e)) {
                    throw e;
                }
                last = e;
            }
        }
        rejected.add(new Rejected(
                one.record(),
                DeadLetterConvention.reason(
                        "failed alone after " + ATTEMPTS_ALONE + " attempts: " + KafkaConfiguration.reason(last))));
    }

    /** Adds the record's event to {@code events}, or says why it cannot be projected. */
    private static Optional<String> decode(ConsumerRecord<byte[], byte[]> record, List<PaymentEvent> events) {
        if (record.value() == null) {
            return Optional.of("a record without a value (tombstone) is not a payment event");
        }
        PaymentEvent event;
        try {
            event = PaymentEventCodec.decode(record.value());
        } catch (RuntimeException e) {
            // The codec reports bad input as IllegalArgumentException; anything else is as undecodable.
            return Optional.of(e.getMessage() == null ? e.getClass().getName() : e.getMessage());
        }
        Optional<String> problem = EventRules.problemWith(event);
        if (problem.isEmpty()) {
            events.add(event);
        }
        return problem;
    }

    private record Rejected(ConsumerRecord<byte[], byte[]> record, String reason) {}

    private record Decoded(ConsumerRecord<byte[], byte[]> record, PaymentEvent event) {}
}
