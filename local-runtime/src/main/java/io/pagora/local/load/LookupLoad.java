package io.pagora.local.load;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Key look-ups only, at a constant offered rate, as the banks' directory proxies send them: a call of
 * {@code batchSize} look-ups ({@code POST /directory/lookups/batch}), or one look-up a call ({@code POST
 * /directory/lookups}) when the size is 1. Every key is a seeded customer's ({@link DemoKeys}), so every look-up
 * should find its key; the end users ({@code PI-PayerId}) are {@code endUsers} numbered CPFs taken in turn, so each
 * one's bucket sees a few look-ups a run, as a bank's many customers do.
 */
public final class LookupLoad implements AutoCloseable {

    /** The measured window's look-ups, by what they were answered, and its calls' latencies (sorted, ms). */
    public record Tally(
            long found,
            long refused,
            long unanswered,
            long dropped,
            Map<String, Long> refusedByType,
            double[] callMs) {}

    private static final Duration REQUEST_TIMEOUT = LoadGenerator.REQUEST_TIMEOUT;
    static final int END_USERS_MAX = 10_000_000;

    private final int batchSize;
    private final WireClient[] clients;
    private final byte[][] keyJson;
    private final String[] keyText;
    private final long endUsers;
    private final String[] endUserCpf;
    private final Semaphore inFlight;
    private final int inFlightMax;
    private final SplittableRandom random = new SplittableRandom(7);
    private long nextEndUser;

    private final LongAdder found = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder unanswered = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final Map<String, LongAdder> refusedByType = new ConcurrentHashMap<>();
    private final AtomicLong foundTotal = new AtomicLong();
    private final LatencyLog latencies = new LatencyLog();

    private volatile long windowStartNanos = Long.MAX_VALUE;
    private volatile long windowEndNanos = Long.MAX_VALUE;

    /**
     * @param apis payment-api's instances: bank i calls instance i mod their number
     * @param customers the seeded customers, whose keys are looked up
     */
    public LookupLoad(
            List<URI> apis, LocalTls tls, List<Id128> customers, int batchSize, int inFlightMax, int endUsers) {
        Check.that(!apis.isEmpty() && apis.size() <= 16, "1..16 payment-api instances");
        Check.that(batchSize >= 1 && batchSize <= 1000, "a look-up batch of 1..1000");
        Check.that(!customers.isEmpty(), "customers whose keys are looked up");
        Check.that(inFlightMax >= 1 && inFlightMax <= 100_000, "in-flight bound 1..100000");
        Check.that(endUsers >= 1 && endUsers <= END_USERS_MAX, "1..%d end users", END_USERS_MAX);
        this.batchSize = batchSize;
        List<BankId> banks = customers.stream()
                .map(id -> ChartOfAccounts.bankOf(id).orElseThrow())
                .distinct()
                .toList();
        String path = batchSize == 1 ? "/directory/lookups" : "/directory/lookups/batch";
        List<WireClient> made = new ArrayList<>(banks.size());
        for (int i = 0; i < banks.size(); i++) {
            made.add(new WireClient(
                    tls.bank(banks.get(i)),
                    LocalTls.requireHttps(apis.get(i % apis.size())).resolve(path),
                    LoadGenerator.CONNECTIONS_PER_BANK_MAX,
                    inFlightMax));
        }
        this.clients = made.toArray(WireClient[]::new);
        this.keyText = customers.stream().map(DemoKeys::keyOf).toArray(String[]::new);
        this.keyJson = customers.stream()
                .map(id -> ("{\"key\":\"" + DemoKeys.keyOf(id) + "\"}").getBytes(StandardCharsets.US_ASCII))
                .toArray(byte[][]::new);
        this.endUsers = endUsers;
        this.endUserCpf = new String[endUsers];
        for (int n = 0; n < endUsers; n++) {
            endUserCpf[n] = DemoKeys.cpfOf(n);
        }
        this.inFlight = new Semaphore(inFlightMax);
        this.inFlightMax = inFlightMax;
    }

    /** Calls scheduled from {@code startNanos} (inclusive) to {@code endNanos} are the measured ones. */
    public void measure(long startNanos, long endNanos) {
        windowStartNanos = startNanos;
        windowEndNanos = endNanos;
    }

    /** Offers {@code lookupsPerSecond} from now until {@code untilNanos}; answers may still be arriving after. */
    public void offer(double lookupsPerSecond, long untilNanos) {
        Check.that(lookupsPerSecond > 0, "a positive rate");
        long intervalNanos = Math.max(1, Math.round(batchSize * 1e9 / lookupsPerSecond));
        long next = System.nanoTime();
        while (next < untilNanos) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            send(next);
            next += intervalNanos;
        }
    }

    /** Waits until every call was answered, at most {@code max}; whether they all were. */
    public boolean awaitAnswers(Duration max) throws InterruptedException {
        if (inFlight.tryAcquire(inFlightMax, max.toMillis(), TimeUnit.MILLISECONDS)) {
            inFlight.release(inFlightMax);
            return true;
        }
        return false;
    }

    /** Look-ups found since the start, whatever the window (the warm-up's too). */
    public long foundTotal() {
        return foundTotal.get();
    }

    /** The measured window's tally. */
    public Tally window() {
        Map<String, Long> byType = new TreeMap<>();
        refusedByType.forEach((type, count) -> byType.put(type, count.sum()));
        return new Tally(found.sum(), refused.sum(), unanswered.sum(), dropped.sum(), byType, latencies.takeSortedMs());
    }

    private void send(long scheduledNanos) {
        boolean measured = scheduledNanos >= windowStartNanos && scheduledNanos < windowEndNanos;
        if (!inFlight.tryAcquire()) {
            if (measured) {
                dropped.add(batchSize);
            }
            return;
        }
        WireClient client = clients[random.nextInt(clients.length)];
        int[] keys = new int[batchSize];
        String[] payers = new String[batchSize];
        for (int i = 0; i < batchSize; i++) {
            keys[i] = random.nextInt(keyText.length);
            payers[i] = endUserCpf[(int) (nextEndUser++ % endUsers)];
        }
        long deadline = scheduledNanos + REQUEST_TIMEOUT.toNanos();
        var answer = batchSize == 1
                ? client.post(keyJson[keys[0]], null, payers[0], deadline)
                : client.post(batchJson(keys, payers), null, deadline);
        answer.whenComplete((response, failure) -> {
            try {
                long latency = System.nanoTime() - scheduledNanos;
                Counted counted = count(response, failure);
                foundTotal.addAndGet(counted.found());
                if (measured) {
                    latencies.add(latency);
                    found.add(counted.found());
                    refused.add(counted.refused().values().stream()
                            .mapToLong(Long::longValue)
                            .sum());
                    unanswered.add(counted.unanswered());
                    counted.refused()
                            .forEach((type, count) -> refusedByType
                                    .computeIfAbsent(type, ignored -> new LongAdder())
                                    .add(count));
                }
            } finally {
                inFlight.release();
            }
        });
    }

    private byte[] batchJson(int[] keys, String[] payers) {
        StringBuilder json = new StringBuilder(keys.length * 90 + 16).append("{\"lookups\":[");
        for (int i = 0; i < keys.length; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append("{\"payerId\":\"")
                    .append(payers[i])
                    .append("\",\"key\":\"")
                    .append(keyText[keys[i]])
                    .append("\"}");
        }
        return json.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** A call's look-ups by their answer. */
    record Counted(long found, Map<String, Long> refused, long unanswered) {}

    private Counted count(WireClient.Answer response, Throwable failure) {
        if (failure != null || response.status() >= 500 || response.status() == 0) {
            return new Counted(0, Map.of(), batchSize);
        }
        if (batchSize == 1) {
            return response.status() == 200
                    ? new Counted(1, Map.of(), 0)
                    : new Counted(0, Map.of(problemType(response.body(), 0, response.status()), 1L), 0);
        }
        if (response.status() != 200) {
            return new Counted(0, Map.of(problemType(response.body(), 0, response.status()), (long) batchSize), 0);
        }
        return counted(response.body(), batchSize);
    }

    /** One result of a batch look-up's answer: found (with its end-to-end id), or refused with its problem's type. */
    record Result(boolean found, String endToEndId, String refusedType) {}

    /**
     * A batch look-up's answer ({@code POST /directory/lookups/batch}) read as text, in order, at most {@code size}
     * results: fewer when the body holds fewer. A result's status is text, its problem's a number, so each text status
     * is one result's.
     */
    static List<Result> results(String body, int size) {
        List<Result> results = new ArrayList<>(size);
        int at = 0;
        while (results.size() < size) {
            int status = body.indexOf("\"status\":\"", at);
            if (status < 0) {
                break;
            }
            at = status + "\"status\":\"".length();
            if (body.startsWith("FOUND\"", at)) {
                results.add(new Result(true, LoadGenerator.field(body, "\"endToEndId\":\"", at), null));
            } else if (body.startsWith("REFUSED\"", at)) {
                results.add(new Result(false, null, problemType(body, at, 0)));
            }
        }
        return results;
    }

    /** A batch answer's results: each {@code FOUND}, or {@code REFUSED} by its problem's type. */
    static Counted counted(String body, int size) {
        long foundCount = 0;
        Map<String, Long> refusedCount = new LinkedHashMap<>();
        List<Result> results = results(body, size);
        for (Result result : results) {
            if (result.found()) {
                foundCount++;
            } else {
                refusedCount.merge(result.refusedType(), 1L, Long::sum);
            }
        }
        return new Counted(foundCount, refusedCount, size - results.size());
    }

    private static String problemType(String body, int from, int status) {
        String marker = "/problems/";
        int at = body.indexOf(marker, from);
        if (at < 0) {
            return "http-" + status;
        }
        int end = body.indexOf('"', at + marker.length());
        return end < 0 ? "http-" + status : body.substring(at + marker.length(), end);
    }

    @Override
    public void close() {
        for (WireClient client : clients) {
            client.close();
        }
    }
}
