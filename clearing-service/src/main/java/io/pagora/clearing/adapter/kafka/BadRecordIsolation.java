package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.Alarm;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.Report;
import io.pagora.kernel.Check;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs clearing work on a poll so that one bad record costs only itself, and still reaches a final
 * state. A failure that says nothing about the records (ledger or Kafka unavailable) is rethrown, and
 * the container retries the whole poll. Any other failure is narrowed down by halving the batch — the
 * halves that work are cleared and published as usual — until single requests remain that fail on
 * their own {@code attemptsPerRequest} times. Those are set aside, the one way for every listener:
 * handed to the listener's last resort (the requests path parks them for expiry; the expiry path
 * publishes what the ledger holds), then dead-lettered with the reason, with any integrity alarm.
 * Every step is idempotent, so clearing a half again after a failure repeats nothing.
 *
 * <p>Bounded: a batch of n requests is cleared at most 2n − 1 times plus the single attempts, at a
 * halving depth of log₂ n.
 */
final class BadRecordIsolation {

    private static final Logger log = LoggerFactory.getLogger(BadRecordIsolation.class);

    /** A request that failed alone, and why. */
    record Failed(ClearingRequest request, ConsumerRecord<String, byte[]> record, RuntimeException cause) {}

    /** What a poll came to: the reports of the parts that worked, and the requests that did not. */
    record Result(List<Report> reports, List<Failed> failed) {

        List<Alarm> alarms() {
            return reports.stream().flatMap(report -> report.alarms().stream()).toList();
        }
    }

    private final int attemptsPerRequest;
    private final DeadLetters deadLetters;

    BadRecordIsolation(int attemptsPerRequest, DeadLetters deadLetters) {
        Check.that(
                attemptsPerRequest >= 1 && attemptsPerRequest <= 100,
                "attempts per request in 1..100: %d",
                attemptsPerRequest);
        this.attemptsPerRequest = attemptsPerRequest;
        this.deadLetters = deadLetters;
    }

    /**
     * Runs {@code work} on {@code requests}, isolating the ones it fails on alone; gives those to
     * {@code lastResort}, which must bring each to a final state without the work that failed on it;
     * then dead-letters them and every integrity alarm raised, and returns only once Kafka acknowledged.
     */
    Result run(
            List<ClearingRequest> requests,
            Map<ClearingRequest, ConsumerRecord<String, byte[]>> records,
            Function<List<ClearingRequest>, Report> work,
            Function<List<ClearingRequest>, Report> lastResort) {
        List<Report> reports = new ArrayList<>();
        List<Failed> failed = new ArrayList<>();
        if (!requests.isEmpty()) {
            run(requests, records, work, reports, failed);
        }
        if (!failed.isEmpty()) {
            reports.add(lastResort.apply(failed.stream().map(Failed::request).toList()));
        }
        Result result = new Result(List.copyOf(reports), List.copyOf(failed));
        deadLetters.setAside(result, records);
        return result;
    }

    private void run(
            List<ClearingRequest> batch,
            Map<ClearingRequest, ConsumerRecord<String, byte[]>> records,
            Function<List<ClearingRequest>, Report> work,
            List<Report> reports,
            List<Failed> failed) {
        if (batch.size() == 1) {
            runAlone(batch.getFirst(), records, work, reports, failed);
            return;
        }
        try {
            reports.add(work.apply(batch));
        } catch (RuntimeException e) {
            rethrowIfTransient(e);
            log.warn(
                    "clearing a batch of {} failed ({}); halving it to find the records that cause it",
                    batch.size(),
                    KafkaConfiguration.rootCause(e));
            int half = batch.size() / 2;
            run(batch.subList(0, half), records, work, reports, failed);
            run(batch.subList(half, batch.size()), records, work, reports, failed);
        }
    }

    private void runAlone(
            ClearingRequest request,
            Map<ClearingRequest, ConsumerRecord<String, byte[]>> records,
            Function<List<ClearingRequest>, Report> work,
            List<Report> reports,
            List<Failed> failed) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= attemptsPerRequest; attempt++) {
            try {
                reports.add(work.apply(List.of(request)));
                return;
            } catch (RuntimeException e) {
                rethrowIfTransient(e);
                last = e;
            }
        }
        ConsumerRecord<String, byte[]> record = records.get(request);
        Check.that(record != null, "every request has its record");
        failed.add(new Failed(request, record, last));
    }

    private static void rethrowIfTransient(RuntimeException e) {
        if (KafkaConfiguration.isTransient(e)) {
            throw e;
        }
    }

    /** Requests by identity (two equal requests from two records are two records). */
    static Map<ClearingRequest, ConsumerRecord<String, byte[]>> newRecordMap() {
        return new IdentityHashMap<>();
    }
}
