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
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * parts no larger than each receiving bank's room in the {@link InstructionWindow}). A record clearing keeps failing on
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
        // With participants, in parts no larger than each receiving bank's room in the instructed window: the rest
        // waits unreserved, where no pending timeout runs. Bounded: each part takes at least one request.
        InstructionWindow.Poll poll = window == null ? null : window.poll();
        int parts = clearInParts(requests, poll, part -> {
            BadRecordIsolation.Result result = isolation.run(part, origins, clearing::clear, parking::park);
            log.debug("cleared {} of a poll's {} records: {}", part.size(), records.size(), result.reports());
        });
        batchSizes.record(records.size());
        log.debug("cleared a poll of {} records in {} parts, {} dead-lettered", records.size(), parts, rejects.size());
    }

    /** Clears one part of a poll. */
    interface PartClearing {
        void clear(List<ClearingRequest> part) throws InterruptedException;
    }

    /**
     * Clears a poll's requests in parts and returns how many: all at once without a window; with one, each part takes
     * for every receiving bank the room its window gives, keeping each payer's requests in the poll's order (a request
     * behind one of its payer's that waits, waits too). Bounded: every part takes at least one request.
     */
    static int clearInParts(List<ClearingRequest> requests, InstructionWindow.Poll poll, PartClearing clearing)
            throws InterruptedException {
        List<ClearingRequest> remaining = requests;
        int parts = 0;
        while (!remaining.isEmpty()) {
            Check.that(parts < requests.size(), "%d parts for %d requests", parts, requests.size());
            List<ClearingRequest> part;
            List<ClearingRequest> left = new ArrayList<>(remaining.size());
            if (poll == null) {
                part = remaining;
            } else {
                part = nextPart(remaining, poll.awaitRoom(wantedPerBank(remaining)), left);
                if (part.isEmpty()) {
                    // Every bank with room has its requests behind an earlier request of the same payer to a bank
                    // without: wait for the first request's bank, which heads its payer's requests.
                    left.clear();
                    BankId first = remaining.getFirst().payment().payeeBank();
                    part = nextPart(remaining, poll.awaitRoom(Map.of(first, 1)), left);
                }
            }
            Check.that(!part.isEmpty(), "an empty part of %d requests", remaining.size());
            clearing.clear(part);
            remaining = left;
            parts++;
        }
        return parts;
    }

    /** How many of these requests each receiving bank is asked about, in the order the banks first appear. */
    static Map<BankId, Integer> wantedPerBank(List<ClearingRequest> requests) {
        Map<BankId, Integer> wanted = new LinkedHashMap<>();
        for (ClearingRequest request : requests) {
            wanted.merge(request.payment().payeeBank(), 1, Integer::sum);
        }
        return wanted;
    }

    /**
     * The next part: for each receiving bank, its first {@code granted} requests in the poll's order, except those behind
     * a request of the same payer left for later; the others go to {@code left}, in order too.
     */
    static List<ClearingRequest> nextPart(
            List<ClearingRequest> requests, Map<BankId, Integer> granted, List<ClearingRequest> left) {
        Map<BankId, Integer> room = new HashMap<>(granted);
        Set<Id128> waitingPayers = new HashSet<>();
        List<ClearingRequest> part = new ArrayList<>(requests.size());
        for (ClearingRequest request : requests) {
            BankId bank = request.payment().payeeBank();
            Id128 payer = request.payment().payer();
            int rest = room.getOrDefault(bank, 0);
            if (rest > 0 && !waitingPayers.contains(payer)) {
                part.add(request);
                room.put(bank, rest - 1);
            } else {
                left.add(request);
                waitingPayers.add(payer);
            }
        }
        return part;
    }
}
