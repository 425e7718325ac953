package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.UnansweredPayments.Instructed;
import io.pagora.clearing.application.expiry.ExpiringInstructed;
import io.pagora.clearing.application.expiry.ExpiringUnanswered;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The expiry worker: consumes {@link Topics#CLEARING_UNANSWERED}, waits until every record's deadline
 * (its pending chain's timeout plus a margin) has passed, then resolves the whole poll with one void
 * request. Records arrive in acceptance order, so waiting for the poll's latest deadline is waiting
 * for each; the wait is bounded by the pending timeout plus margin, and the consumer's
 * {@code max.poll.interval.ms} is set above that. A record the worker fails on alone is dead-lettered
 * and gets the outcome the ledger holds for it ({@link ExpiringUnanswered#publishWhatTheLedgerHolds}).
 */
@Component
public class UnansweredListener {

    private static final Logger log = LoggerFactory.getLogger(UnansweredListener.class);

    public static final String ID = "clearing-expiry";
    /** Instructed ids expired per call: their void legs (three each) fill three ledger requests; a few MB of memory. */
    static final int IDS_PER_EXPIRY_MAX = 8_192;

    private final ExpiringUnanswered unanswered;
    private final ExpiringInstructed instructedExpiry;
    /** Only participants' payments are instructed: an instructed record parked under another wiring fails alone. */
    private final boolean participants;

    private final DeadLetters deadLetters;
    private final ExpiryDeadlines deadlines;
    private final Clock clock;
    private final Duration waitMax;
    private final BadRecordIsolation isolation;

    public UnansweredListener(
            ExpiringUnanswered unanswered,
            ExpiringInstructed instructedExpiry,
            DeadLetters deadLetters,
            ExpiryDeadlines deadlines,
            Clock clock,
            ClearingProperties properties) {
        this.unanswered = unanswered;
        this.instructedExpiry = instructedExpiry;
        this.participants = properties.participantsAnswer();
        this.deadLetters = deadLetters;
        this.deadlines = deadlines;
        this.clock = clock;
        this.waitMax = properties.pendingTimeout().plus(properties.expiryMargin());
        this.isolation = new BadRecordIsolation(Math.max(1, properties.retry().attempts()), deadLetters);
    }

    // clientIdPrefix: the Kafka client metrics (consumer lag) name this listener's consumers clearing-expiry-<n>.
    @KafkaListener(
            id = ID,
            topics = Topics.CLEARING_UNANSWERED,
            clientIdPrefix = ID,
            groupId = "${pagora.clearing.expiry-group-id:" + ConsumerGroups.CLEARING_EXPIRY + "}",
            containerFactory = KafkaConfiguration.EXPIRY_LISTENER_FACTORY,
            batch = "true")
    public void onPoll(List<ConsumerRecord<String, byte[]>> records) {
        List<ClearingRequest> requests = new ArrayList<>(records.size());
        Map<ClearingRequest, ConsumerRecord<String, byte[]>> origins = BadRecordIsolation.newRecordMap();
        List<ConsumerRecord<String, byte[]>> instructed = new ArrayList<>();
        List<DeadLetters.DeadLetter> rejects = new ArrayList<>();
        // A deadline beyond one timeout from now is not ours to honour (clock jump, foreign writer): cap the wait.
        Instant capped = clock.instant().plus(waitMax);
        Instant latest = Instant.EPOCH;
        for (ConsumerRecord<String, byte[]> record : records) {
            if (KafkaUnansweredPayments.holdsInstructedIds(record.headers())) {
                instructed.add(record); // decoded a group at a time, after the wait: a poll may hold millions of ids
            } else {
                switch (ClearingRequest.parse(record.value())) {
                    case ClearingRequest.Parsed.Valid valid -> {
                        requests.add(valid.request());
                        origins.put(valid.request(), record);
                    }
                    case ClearingRequest.Parsed.Invalid invalid -> {
                        rejects.add(new DeadLetters.DeadLetter(record, invalid.reason()));
                        continue;
                    }
                }
            }
            Instant deadline = deadlineOf(record, capped);
            latest = deadline.isAfter(latest) ? deadline : latest;
        }
        deadLetters.send(rejects);
        if (requests.isEmpty() && instructed.isEmpty()) {
            return;
        }
        deadlines.awaitPassed(latest.isAfter(capped) ? capped : latest);
        expireInstructed(instructed);
        if (!requests.isEmpty()) {
            // There is no later path to park a payment the expiry path failed on alone: it gets the outcome
            // its chain in the ledger shows (an integrity alarm stays an alarm), so it never stays ACCEPTED.
            BadRecordIsolation.Result result =
                    isolation.run(requests, origins, unanswered::expire, unanswered::publishWhatTheLedgerHolds);
            log.debug("resolved {} unanswered payments: {}", requests.size(), result.reports());
        }
    }

    /**
     * Expires the instructed payments of the poll's id records, a group of at most {@value #IDS_PER_EXPIRY_MAX} ids (or
     * one record) at a time: a poll of such records can hold millions of ids when answers fall behind, and expiring
     * them in one go would hold them all, their pending legs and their voids in memory at once. An unreadable record
     * is dead-lettered.
     */
    private void expireInstructed(List<ConsumerRecord<String, byte[]>> records) {
        deadLetters.send(inGroups(records, IDS_PER_EXPIRY_MAX, this::expireGroup));
    }

    /**
     * Hands the records' ids to {@code expire} in groups of at most {@code idsMax} ids (a record holding more is a group
     * alone), decoding each record only when its group is next; returns the unreadable records, to dead-letter.
     */
    static List<DeadLetters.DeadLetter> inGroups(
            List<ConsumerRecord<String, byte[]>> records,
            int idsMax,
            java.util.function.Consumer<Map<ConsumerRecord<String, byte[]>, List<Instructed>>> expire) {
        List<DeadLetters.DeadLetter> unreadable = new ArrayList<>();
        Map<ConsumerRecord<String, byte[]>, List<Instructed>> group = new LinkedHashMap<>();
        int ids = 0;
        for (ConsumerRecord<String, byte[]> record : records) {
            List<Instructed> decoded;
            try {
                decoded = KafkaUnansweredPayments.decodeInstructed(record.headers(), record.value());
            } catch (IllegalArgumentException e) {
                unreadable.add(new DeadLetters.DeadLetter(record, e.getMessage()));
                continue;
            }
            if (!group.isEmpty() && ids + decoded.size() > idsMax) {
                expire.accept(new LinkedHashMap<>(group)); // a copy in record order: the group is reused
                group.clear();
                ids = 0;
            }
            group.put(record, decoded);
            ids += decoded.size();
        }
        if (!group.isEmpty()) {
            expire.accept(group);
        }
        return unreadable;
    }

    /**
     * Expires a group's instructed payments in one go; if that fails for a reason that is not transient (a bug),
     * each record alone. A record that still fails gets, for each of its payments, the outcome the ledger holds
     * ({@link ExpiringInstructed#publishWhatTheLedgerHolds}: its chain lapses, nothing moves, the payment expired), and is then
     * dead-lettered for the operator to see. A transient failure retries the poll.
     */
    private void expireGroup(Map<ConsumerRecord<String, byte[]>, List<Instructed>> instructed) {
        if (instructed.isEmpty()) {
            return;
        }
        try {
            expirePayments(instructed.values().stream().flatMap(List::stream).toList());
            return;
        } catch (RuntimeException e) {
            if (KafkaConfiguration.isTransient(e)) {
                throw e;
            }
            log.warn(
                    "expiring {} instructed records failed ({}); record by record",
                    instructed.size(),
                    KafkaConfiguration.rootCause(e));
        }
        List<DeadLetters.DeadLetter> failed = new ArrayList<>();
        List<Instructed> failedIds = new ArrayList<>();
        instructed.forEach((record, ids) -> {
            try {
                expirePayments(ids);
            } catch (RuntimeException e) {
                if (KafkaConfiguration.isTransient(e)) {
                    throw e;
                }
                log.error(
                        "expiring the {} instructed payments of {}-{}@{} failed alone; dead-lettered: {}",
                        ids.size(),
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        KafkaConfiguration.rootCause(e));
                failed.add(new DeadLetters.DeadLetter(record, "expiring failed: " + KafkaConfiguration.rootCause(e)));
                failedIds.addAll(ids);
            }
        });
        if (!failedIds.isEmpty()) {
            // Published before the record is set aside: a crash in between repeats the outcomes (the same ones), never
            // loses them.
            instructedExpiry.publishWhatTheLedgerHolds(failedIds);
        }
        deadLetters.send(failed);
    }

    private void expirePayments(List<Instructed> payments) {
        Check.that(participants, "only participants' payments are instructed");
        instructedExpiry.expire(payments);
    }

    /**
     * The record's deadline; {@code longest} (a whole pending timeout plus the margin from now, which any
     * chain reserved before the record was parked has outlived) if its header is missing or unreadable:
     * a valid payment is still a payment, and dead-lettering it would leave it without an outcome.
     */
    private static Instant deadlineOf(ConsumerRecord<String, byte[]> record, Instant longest) {
        Header header = record.headers().lastHeader(KafkaUnansweredPayments.DEADLINE_HEADER);
        String text =
                header == null || header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            // The header's text is not logged: a foreign writer's bytes, unbounded.
            log.warn(
                    "parked payment {}-{}@{} has no readable {} header: waiting the longest, until {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    KafkaUnansweredPayments.DEADLINE_HEADER,
                    longest);
            return longest;
        }
    }
}
