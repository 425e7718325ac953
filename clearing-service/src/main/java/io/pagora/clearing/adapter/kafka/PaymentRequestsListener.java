package io.pagora.clearing.adapter.kafka;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.ClearingRequests;
import io.pagora.clearing.application.expiry.ParkingForExpiry;
import io.pagora.clearing.application.participants.InstructionWindow;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Consumes {@link Topics#PAYMENTS_REQUESTED} one poll at a time and clears the whole poll as one batch.
 *
 * <p>Records that are not valid payment requests go to the dead-letter topic first (synchronously);
 * the rest are cleared with a constant number of ledger requests per part (with participants, a poll is cleared in
 * parts no larger than the room in the {@link InstructionWindow}). A record clearing keeps failing on
 * (not for a transient reason) is found by {@link BadRecordIsolation} and set aside alone — dead-lettered
 * and parked for expiry — while the rest of the poll settles; a payment the ledger shows to conflict
 * with another under its id (an integrity alarm) is dead-lettered with the alarm, and gets no outcome. The listener returns only after
 * every dead letter, parked payment and outcome is acknowledged by Kafka; only then are the offsets
 * committed (AckMode.BATCH). Any exception leaves the offsets where they were: the poll is retried
 * or, after a crash, redelivered, and clearing it again is idempotent.
 */
@Component
public class PaymentRequestsListener {

    private static final Logger log = LoggerFactory.getLogger(PaymentRequestsListener.class);

    public static final String ID = "clearing-payments";

    private final ClearingRequests clearing;
    private final ParkingForExpiry parking;
    private final DeadLetters deadLetters;
    private final BadRecordIsolation isolation;
    private final DistributionSummary batchSizes;
    /** Participants only: the in-process bank answers within the poll, and nothing waits for an answer. */
    private final InstructionWindow window;

    public PaymentRequestsListener(
            ClearingRequests clearing,
            ParkingForExpiry parking,
            DeadLetters deadLetters,
            ClearingProperties properties,
            InstructionWindow window,
            MeterRegistry meters) {
        this.clearing = clearing;
        this.parking = parking;
        this.window = properties.participantsAnswer() ? window : null;
        this.deadLetters = deadLetters;
        this.isolation = new BadRecordIsolation(Math.max(1, properties.retry().attempts()), deadLetters);
        this.batchSizes = DistributionSummary.builder("pagora.clearing.batch.size")
                .description("Payment requests per clearing batch (one Kafka poll)")
                .register(meters);
    }

    // clientIdPrefix: the Kafka client metrics (consumer lag) name this listener's consumers clearing-payments-<n>.
    @KafkaListener(
            id = ID,
            topics = Topics.PAYMENTS_REQUESTED,
            groupId = "${pagora.clearing.group-id:" + ConsumerGroups.CLEARING + "}",
            clientIdPrefix = ID,
            containerFactory = KafkaConfiguration.PAYMENTS_LISTENER_FACTORY,
            batch = "true")
    public void onPoll(List<ConsumerRecord<String, byte[]>> records) throws InterruptedException {
        List<ClearingRequest> requests = new ArrayList<>(records.size());
        Map<ClearingRequest, ConsumerRecord<String, byte[]>> origins = BadRecordIsolation.newRecordMap();
        List<DeadLetters.DeadLetter> rejects = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            switch (ClearingRequest.parse(record.value())) {
                case ClearingRequest.Parsed.Valid valid -> {
                    requests.add(valid.request());
                    origins.put(valid.request(), record);
                }
                case ClearingRequest.Parsed.Invalid invalid ->
                    rejects.add(new DeadLetters.DeadLetter(record, invalid.reason()));
            }
        }
        deadLetters.send(rejects);
        // A valid payment clearing failed on alone is parked for the expiry path, which resolves it from
        // the ledger (expired, or whatever an earlier attempt did): it still reaches a final state.
        // With participants, in parts no larger than the instructed window's room: the rest waits unreserved, where
        // no pending timeout runs. Bounded: each part takes at least one request.
        InstructionWindow.Poll poll = window == null ? null : window.poll();
        int parts = 0;
        for (int from = 0; from < requests.size(); parts++) {
            int size = poll == null ? requests.size() - from : poll.awaitRoom(requests.size() - from);
            Check.that(
                    size >= 1 && from + size <= requests.size(),
                    "part of %d from %d of %d",
                    size,
                    from,
                    requests.size());
            BadRecordIsolation.Result result =
                    isolation.run(requests.subList(from, from + size), origins, clearing::clear, parking::park);
            log.debug("cleared {} of a poll's {} records: {}", size, records.size(), result.reports());
            from += size;
        }
        batchSizes.record(records.size());
        log.debug("cleared a poll of {} records in {} parts, {} dead-lettered", records.size(), parts, rejects.size());
    }
}
