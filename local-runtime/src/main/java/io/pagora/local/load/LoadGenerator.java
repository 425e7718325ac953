package io.pagora.local.load;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.bench.Timeline;
import io.pagora.local.runfiles.AcceptedPayments;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

// Over 400 lines: the schedule, the sending and the answers' bookkeeping share one set of counters.
/**
 * An open-model load generator for the bench: requests leave on a fixed schedule whatever the answers
 * (latency is measured from the scheduled instant, so a slow platform cannot hide by slowing the sender
 * down), bodies are built ahead of their send time from byte templates, connections are kept alive, and
 * in-flight requests are bounded: a request that finds no room is counted as dropped, which makes the
 * run invalid instead of quietly offering less.
 *
 * <p>Every call is sent by the payer's bank, over mutual TLS with that bank's certificate (one {@link WireClient}, and
 * so one pool of kept-alive connections, per bank): a call's payers are all customers of one bank, the payees any
 * bank's. Every answer is written to the accepted-payments log in {@link AcceptedPayments}' format, so the
 * same invariant checks as the demo's judge the run.
 */
public final class LoadGenerator implements AutoCloseable {

    public enum Mode {
        BULK,
        SINGLE
    }

    /** Deadline of one HTTP call (the generator never waits longer for an answer). */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /**
     * Calls of one bank on the wire at once, and so its connections (HTTP/1.1: one call per connection): as a bank's
     * HTTP client pools its connections below the switch's published bound (payment-api's
     * {@code pagora.web.connections-per-participant-max}, 128). Without a bound the JDK client opened a connection per call
     * whenever none was idle: a flood starting at 960/s opened 1,024 connections in 5 s (its TLS handshakes slower than
     * its calls), every later connection waited in the accept queue and timed out, the other bank's with them. A call
     * past it waits for a connection of its bank; its latency counts from its scheduled time all the same.
     */
    static final int CONNECTIONS_PER_BANK_MAX = 64;

    private final Mode mode;
    private final int batchSize;
    private final List<Id128> customers;
    private final String runId;
    /**
     * One client per bank (its certificate), indexed like {@link #customersOfBank}: at most
     * {@link #CONNECTIONS_PER_BANK_MAX} calls of a bank on the wire, the rest waiting in order.
     */
    private final WireClient[] clients;
    /** With a share paid by key: one look-up client per bank, indexed like {@link #clients}; else null. */
    private final WireClient[] lookupClients;
    /** Payments whose payee is named by its PIX key ({@link DemoKeys}), after a look-up for the payer's end user. */
    private final double keyShare;
    /** Each customer's key as a look-up's body names it, and its holder's CPF (its PI-PayerId when it pays). */
    private final byte[][] lookupBody;

    private final String[] payerIdOf;
    /** Each bank's customers, as indexes into {@link #customerHex}. */
    private final int[][] customersOfBank;
    /** The bank (index into {@link #clients}) of each customer. */
    private final int[] bankOfCustomer;

    private final Semaphore inFlight;
    private final int inFlightMax;
    private final BufferedWriter log;
    private final SplittableRandom random = new SplittableRandom(42);
    private final byte[][] customerHex;
    /** The customers a call's payers' bank is drawn from (indexes into {@link #customerHex}). */
    private final int[] payerPool;
    /** Every answer by class ({@link #answerClass}), whatever the window: what overload was answered with. */
    private final Map<String, LongAdder> answerClasses = new ConcurrentHashMap<>();

    private final AtomicLong acceptedPayments = new AtomicLong();
    private final AtomicLong refusedPayments = new AtomicLong();
    private final AtomicLong unansweredPayments = new AtomicLong();
    private final AtomicLong droppedPayments = new AtomicLong();
    private final AtomicLong sentPayments = new AtomicLong();
    private long sequence;

    /** Latencies (ns) of the calls scheduled inside the measured window. */
    private final LatencyLog latencies = new LatencyLog();

    private volatile long windowStartNanos = Long.MAX_VALUE;
    private volatile long windowEndNanos = Long.MAX_VALUE;
    /** Where every call's latency also goes, second by second (report.html), when a step keeps one. */
    private volatile Timeline timeline;

    public LoadGenerator(
            Mode mode,
            int batchSize,
            URI apiUrl,
            LocalTls tls,
            List<Id128> customers,
            Path acceptedLog,
            int inFlightMax)
            throws IOException {
        this(mode, batchSize, List.of(apiUrl), tls, customers, Set.of(), acceptedLog, inFlightMax);
    }

    public LoadGenerator(
            Mode mode,
            int batchSize,
            URI apiUrl,
            LocalTls tls,
            List<Id128> customers,
            Set<BankId> payingBanks,
            Path acceptedLog,
            int inFlightMax)
            throws IOException {
        this(mode, batchSize, List.of(apiUrl), tls, customers, payingBanks, acceptedLog, inFlightMax);
    }

    /**
     * @param payingBanks the banks whose customers pay (each call is sent by one of them); empty: every bank's.
     *     Payees are drawn from every customer either way.
     * @param apiUrls payment-api's instances: bank i sends to instance i mod their number (the scaled platform's two
     *     share the banks, as a load balancer pinning each bank's connections would)
     */
    public LoadGenerator(
            Mode mode,
            int batchSize,
            List<URI> apiUrls,
            LocalTls tls,
            List<Id128> customers,
            Set<BankId> payingBanks,
            Path acceptedLog,
            int inFlightMax)
            throws IOException {
        this(mode, batchSize, apiUrls, tls, customers, payingBanks, acceptedLog, inFlightMax, 0);
    }

    /** @param keyShare the payments whose payee is named by its PIX key, each after a look-up of the key */
    public LoadGenerator(
            Mode mode,
            int batchSize,
            List<URI> apiUrls,
            LocalTls tls,
            List<Id128> customers,
            Set<BankId> payingBanks,
            Path acceptedLog,
            int inFlightMax,
            double keyShare)
            throws IOException {
        Check.that(!apiUrls.isEmpty() && apiUrls.size() <= 16, "1..16 payment-api instances");
        Check.that(keyShare >= 0 && keyShare <= 1, "a key share in 0..1: %s", keyShare);
        Check.that(batchSize >= 1 && batchSize <= 1000, "batch size 1..1000");
        Check.that(customers.size() >= 2, "at least two customers to pay between");
        Check.that(inFlightMax >= 1 && inFlightMax <= 100_000, "in-flight bound 1..100000");
        this.mode = mode;
        this.batchSize = mode == Mode.SINGLE ? 1 : batchSize;
        String path = mode == Mode.SINGLE ? "/payments" : "/payments/batch";
        List<URI> uris = apiUrls.stream()
                .map(api -> LocalTls.requireHttps(api).resolve(path))
                .toList();
        this.customers = List.copyOf(customers);
        this.customerHex = customers.stream()
                .map(id -> id.toString().getBytes(StandardCharsets.US_ASCII))
                .toArray(byte[][]::new);
        this.runId = Long.toString(System.currentTimeMillis(), 36);
        Map<BankId, int[]> byBank = customersByBank(this.customers);
        this.customersOfBank = byBank.values().toArray(int[][]::new);
        List<BankId> bankOrder = List.copyOf(byBank.keySet());
        this.clients = IntStream.range(0, bankOrder.size())
                .mapToObj(i -> new WireClient(
                        tls.bank(bankOrder.get(i)), uris.get(i % uris.size()), CONNECTIONS_PER_BANK_MAX, inFlightMax))
                .toArray(WireClient[]::new);
        this.keyShare = keyShare;
        this.lookupClients = keyShare == 0
                ? null
                : IntStream.range(0, bankOrder.size())
                        .mapToObj(i -> new WireClient(
                                tls.bank(bankOrder.get(i)),
                                LocalTls.requireHttps(apiUrls.get(i % apiUrls.size()))
                                        .resolve(mode == Mode.BULK ? "/directory/lookups/batch" : "/directory/lookups"),
                                CONNECTIONS_PER_BANK_MAX,
                                // One look-up call per call in flight at most.
                                inFlightMax))
                        .toArray(WireClient[]::new);
        this.lookupBody = customers.stream()
                .map(id -> ("{\"key\":\"" + DemoKeys.keyOf(id) + "\"}").getBytes(StandardCharsets.US_ASCII))
                .toArray(byte[][]::new);
        this.payerIdOf = customers.stream().map(DemoKeys::cpfOf).toArray(String[]::new);
        this.bankOfCustomer = new int[customers.size()];
        for (int bank = 0; bank < customersOfBank.length; bank++) {
            for (int customer : customersOfBank[bank]) {
                bankOfCustomer[customer] = bank;
            }
        }
        List<BankId> banks = List.copyOf(byBank.keySet());
        Check.that(
                banks.containsAll(payingBanks),
                "the paying banks %s are among the customers' banks %s",
                payingBanks,
                banks);
        this.payerPool = IntStream.range(0, customers.size())
                .filter(c -> payingBanks.isEmpty() || payingBanks.contains(banks.get(bankOfCustomer[c])))
                .toArray();
        this.inFlight = new Semaphore(inFlightMax);
        this.inFlightMax = inFlightMax;
        this.log = Files.newBufferedWriter(acceptedLog, StandardCharsets.UTF_8);
    }

    /** Each bank's customers (indexes into {@code customers}), banks in order of first appearance. */
    private static Map<BankId, int[]> customersByBank(List<Id128> customers) {
        Map<BankId, List<Integer>> byBank = new LinkedHashMap<>();
        for (int customer = 0; customer < customers.size(); customer++) {
            BankId bank = ChartOfAccounts.bankOf(customers.get(customer)).orElseThrow();
            byBank.computeIfAbsent(bank, key -> new ArrayList<>()).add(customer);
        }
        Map<BankId, int[]> indexes = new LinkedHashMap<>();
        byBank.forEach((bank, ofBank) ->
                indexes.put(bank, ofBank.stream().mapToInt(Integer::intValue).toArray()));
        return indexes;
    }

    /** Calls scheduled from {@code startNanos} (inclusive) to {@code endNanos} are the measured ones. */
    public void measure(long startNanos, long endNanos) {
        windowStartNanos = startNanos;
        windowEndNanos = endNanos;
    }

    /** Hands every call's latency to {@code kept} from now on (null: to none). */
    public void timeline(Timeline kept) {
        timeline = kept;
    }

    /**
     * Offers {@code paymentsPerSecond} from now until {@code untilNanos}, then returns (answers may
     * still be arriving: see {@link #awaitAnswers}).
     */
    public void offer(double paymentsPerSecond, long untilNanos) {
        Check.that(paymentsPerSecond > 0, "a positive rate");
        long intervalNanos = Math.max(1, Math.round(batchSize * 1e9 / paymentsPerSecond));
        long next = System.nanoTime();
        Body body = nextBody();
        while (next < untilNanos) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            send(body, next);
            body = nextBody(); // the next body is built while this one is on its way
            next += intervalNanos;
        }
    }

    /**
     * One call's body, the idempotency keys of its payments in order, and the payers' bank (who sends it). With a
     * payment by key among them, the body is written once their look-ups answered: {@code json} is null and
     * {@code items} says what to write.
     */
    record Body(byte[] json, String[] keys, int bank, Item[] items) {}

    /** A payment of a call: customers' indexes, the amount, and whether its payee is named by key. */
    record Item(int payer, int payee, int amountCentavos, boolean byKey) {}

    /**
     * The payers' bank is the bank of a customer drawn uniformly (so each customer pays about equally often),
     * every payer of the call one of its customers.
     */
    Body nextBody() {
        String[] keys = new String[batchSize];
        int bank = bankOfCustomer[payerPool[random.nextInt(payerPool.length)]];
        int[] payers = customersOfBank[bank];
        Item[] items = new Item[batchSize];
        boolean anyByKey = false;
        for (int i = 0; i < batchSize; i++) {
            int payer = payers[random.nextInt(payers.length)];
            int payee = random.nextInt(customers.size() - 1);
            if (payee >= payer) {
                payee++;
            }
            keys[i] = "bench-" + runId + "-" + (++sequence);
            boolean byKey = keyShare > 0 && random.nextDouble() < keyShare;
            anyByKey |= byKey;
            items[i] = new Item(payer, payee, 1 + random.nextInt(99), byKey);
        }
        if (anyByKey) {
            return new Body(null, keys, bank, items);
        }
        return new Body(json(keys, items, null), keys, bank, null);
    }

    /** The call's JSON; {@code endToEndIds[i]} the look-up's id of item i by key (null: by account). */
    private byte[] json(String[] keys, Item[] items, String[] endToEndIds) {
        StringBuilder json = new StringBuilder(keys.length * 200 + 16);
        if (mode == Mode.BULK) {
            json.append("{\"payments\":[");
        }
        for (int i = 0; i < keys.length; i++) {
            Item item = items[i];
            if (i > 0) {
                json.append(',');
            }
            json.append('{');
            if (mode == Mode.BULK) {
                json.append("\"idempotencyKey\":\"").append(keys[i]).append("\",");
            }
            json.append("\"payerAccountId\":\"")
                    .append(new String(customerHex[item.payer()], StandardCharsets.US_ASCII));
            if (endToEndIds != null && endToEndIds[i] != null) {
                json.append("\",\"payeeKey\":\"")
                        .append(DemoKeys.keyOf(customers.get(item.payee())))
                        .append("\",\"endToEndId\":\"")
                        .append(endToEndIds[i]);
            } else {
                json.append("\",\"payeeAccountId\":\"")
                        .append(new String(customerHex[item.payee()], StandardCharsets.US_ASCII));
            }
            json.append("\",\"amountCentavos\":").append(item.amountCentavos()).append('}');
        }
        if (mode == Mode.BULK) {
            json.append("]}");
        }
        return json.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private void send(Body body, long scheduledNanos) {
        String[] keys = body.keys();
        if (!inFlight.tryAcquire()) {
            droppedPayments.addAndGet(keys.length);
            return;
        }
        sentPayments.addAndGet(keys.length);
        if (body.json() == null) {
            lookUpThenSend(body, scheduledNanos);
            return;
        }
        post(body, scheduledNanos);
    }

    /**
     * The call's payments by key are looked up first for their payers' end users, as a bank does: in bulk, all in one
     * {@code POST /directory/lookups/batch}; one at a time, each its own {@code POST /directory/lookups}. The call
     * then pays those whose look-up found the key, and each other one is recorded as its answer says. The call's
     * latency counts from its scheduled instant, look-ups included.
     */
    private void lookUpThenSend(Body body, long scheduledNanos) {
        Item[] items = body.items();
        long deadline = scheduledNanos + REQUEST_TIMEOUT.toNanos();
        List<Integer> byKey = new ArrayList<>(items.length);
        for (int i = 0; i < items.length; i++) {
            if (items[i].byKey()) {
                byKey.add(i);
            }
        }
        CompletableFuture<WireClient.Answer> lookUp;
        if (mode == Mode.BULK) {
            StringBuilder json = new StringBuilder(byKey.size() * 90 + 16).append("{\"lookups\":[");
            for (int n = 0; n < byKey.size(); n++) {
                Item item = items[byKey.get(n)];
                json.append(n == 0 ? "" : ",")
                        .append("{\"payerId\":\"")
                        .append(payerIdOf[item.payer()])
                        .append("\",\"key\":\"")
                        .append(DemoKeys.keyOf(customers.get(item.payee())))
                        .append("\"}");
            }
            byte[] request = json.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
            lookUp = lookupClients[body.bank()].post(request, null, deadline);
        } else {
            Item item = items[byKey.getFirst()];
            lookUp = lookupClients[body.bank()].post(lookupBody[item.payee()], null, payerIdOf[item.payer()], deadline);
        }
        lookUp.whenComplete((answer, failure) -> {
            String[] found = failure != null || answer.status() != 200
                    ? null
                    : mode == Mode.BULK
                            ? foundIds(answer.body(), byKey.size())
                            : new String[] {field(answer.body(), "\"endToEndId\":\"", 0)};
            int status = failure != null ? 0 : answer.status();
            String[] endToEndIds = new String[items.length];
            List<Integer> sent = new ArrayList<>(items.length);
            StringBuilder lines = new StringBuilder();
            for (int i = 0, n = 0; i < items.length; i++) {
                if (!items[i].byKey()) {
                    sent.add(i);
                    continue;
                }
                String id = found == null ? null : found[n];
                n++;
                if (id != null) {
                    endToEndIds[i] = id;
                    sent.add(i);
                } else if (found == null && (status == 0 || status >= 500)) {
                    lines.append("UNANSWERED\t")
                            .append(body.keys()[i])
                            .append('\t')
                            .append(status)
                            .append('\n');
                    unansweredPayments.incrementAndGet();
                } else {
                    lines.append("REFUSED\t")
                            .append(body.keys()[i])
                            .append('\t')
                            .append(found == null ? status : 200)
                            .append("\t-\n");
                    refusedPayments.incrementAndGet();
                }
            }
            append(lines);
            if (sent.isEmpty()) {
                inFlight.release();
                return;
            }
            String[] keys = sent.stream().map(i -> body.keys()[i]).toArray(String[]::new);
            Item[] kept = sent.stream().map(i -> items[i]).toArray(Item[]::new);
            String[] ids = sent.stream().map(i -> endToEndIds[i]).toArray(String[]::new);
            post(new Body(json(keys, kept, ids), keys, body.bank(), null), scheduledNanos);
        });
    }

    /**
     * A batch look-up's results, in order: each {@code FOUND}'s end-to-end id, null for each {@code REFUSED}; null
     * when the body does not hold {@code size} results.
     */
    static String[] foundIds(String body, int size) {
        List<LookupLoad.Result> results = LookupLoad.results(body, size);
        if (results.size() < size) {
            return null;
        }
        return results.stream().map(LookupLoad.Result::endToEndId).toArray(String[]::new);
    }

    /** Posts the call; its answer is recorded and its in-flight slot released. */
    private void post(Body body, long scheduledNanos) {
        String[] keys = body.keys();
        // The call's deadline counts from its scheduled instant: time spent waiting for a connection of its bank
        // counts.
        clients[body.bank()]
                .post(body.json(), mode == Mode.SINGLE ? keys[0] : null, scheduledNanos + REQUEST_TIMEOUT.toNanos())
                .whenComplete((answer, failure) -> {
                    try {
                        long latency = System.nanoTime() - scheduledNanos;
                        if (scheduledNanos >= windowStartNanos && scheduledNanos < windowEndNanos) {
                            latencies.add(latency);
                        }
                        Timeline kept = timeline;
                        if (kept != null) {
                            kept.latency(scheduledNanos, latency);
                        }
                        record(keys, answer, failure);
                    } finally {
                        inFlight.release();
                    }
                });
    }

    private void record(String[] keys, WireClient.Answer response, Throwable failure) {
        answerClasses
                .computeIfAbsent(answerClass(response, failure), key -> new LongAdder())
                .increment();
        StringBuilder lines = new StringBuilder(keys.length * 80);
        int status = failure == null ? response.status() : 0;
        if (failure != null || status >= 500) {
            for (String key : keys) {
                lines.append("UNANSWERED\t")
                        .append(key)
                        .append('\t')
                        .append(status)
                        .append('\n');
            }
            unansweredPayments.addAndGet(keys.length);
        } else if (mode == Mode.SINGLE) {
            recordSingle(keys[0], status, response.body(), lines);
        } else if (status == 200) {
            recordBatch(keys, response.body(), lines);
        } else {
            for (String key : keys) {
                lines.append("REFUSED\t")
                        .append(key)
                        .append('\t')
                        .append(status)
                        .append("\t-\n");
            }
            refusedPayments.addAndGet(keys.length);
        }
        append(lines);
    }

    private void append(CharSequence lines) {
        if (lines.isEmpty()) {
            return;
        }
        synchronized (log) {
            try {
                log.append(lines);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void recordSingle(String key, int status, String body, StringBuilder lines) {
        String id = status == 202 ? field(body, "\"paymentId\":\"", 0) : null;
        if (id != null) {
            lines.append("ACCEPTED\t")
                    .append(key)
                    .append('\t')
                    .append(id)
                    .append('\t')
                    .append(status)
                    .append("\tfirst\n");
            acceptedPayments.incrementAndGet();
        } else {
            lines.append("REFUSED\t").append(key).append('\t').append(status).append("\t-\n");
            refusedPayments.incrementAndGet();
        }
    }

    /** The batch answer lists one result per item, in order: its status, and the payment id when accepted. */
    private void recordBatch(String[] keys, String body, StringBuilder lines) {
        int at = 0;
        for (String key : keys) {
            int statusAt = body.indexOf("\"status\":\"", at);
            Check.that(statusAt >= 0, "a batch answer has a result per item");
            at = statusAt + 10;
            int next = body.indexOf("\"status\":\"", at);
            String item = body.substring(at, next < 0 ? body.length() : next);
            if (body.startsWith("ACCEPTED", at) || body.startsWith("REPLAYED", at)) {
                String id = field(body, "\"paymentId\":\"", at);
                Check.that(id != null, "an accepted item names its payment");
                lines.append("ACCEPTED\t").append(key).append('\t').append(id).append("\t200\tfirst\n");
                acceptedPayments.incrementAndGet();
            } else if (body.startsWith("UNKNOWN", at) || item.contains("/problems/broker-unavailable")) {
                // Not a refusal: the payment may have been published (the API says UNKNOWN); its outcome is unknown.
                lines.append("UNANSWERED\t").append(key).append("\t200\n");
                unansweredPayments.incrementAndGet();
            } else {
                lines.append("REFUSED\t").append(key).append("\t200\t-\n");
                refusedPayments.incrementAndGet();
            }
        }
    }

    /**
     * The answer classes a single payment may get under overload (see {@link #answerClass}): accepted, refused for now
     * with when to retry, or outcome unknown (retry with the same key).
     */
    static final Set<String> ANSWERED_CLASSES = Set.of("202", "429 with Retry-After", "503 outcome-unknown");

    /**
     * What one call was answered: its status, and for a 429 whether it says when to retry, for a 503 whether it is
     * outcome-unknown (retry with the same key); a call without an answer is named by its failure (a time-out,
     * a refused or reset connection).
     */
    static String answerClass(WireClient.Answer response, Throwable failure) {
        if (failure != null) {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            return "no answer: " + cause.getClass().getSimpleName();
        }
        int status = response.status();
        return switch (status) {
            case 429 -> response.retryAfter() ? "429 with Retry-After" : "429 without Retry-After";
            case 503 ->
                response.body() != null && response.body().contains("/problems/outcome-unknown")
                        ? "503 outcome-unknown"
                        : "503 other";
            default -> Integer.toString(status);
        };
    }

    /** Every answer so far by class, in class order. */
    public Map<String, Long> answerClasses() {
        Map<String, Long> counts = new TreeMap<>();
        answerClasses.forEach((answer, count) -> counts.put(answer, count.sum()));
        return counts;
    }

    /** The text after {@code marker} (its first at or after {@code from}) up to the next quote; null if none. */
    static String field(String body, String marker, int from) {
        int start = body.indexOf(marker, from);
        if (start < 0) {
            return null;
        }
        start += marker.length();
        int end = body.indexOf('"', start);
        return end < 0 ? null : body.substring(start, end);
    }

    /** Waits, bounded, until every call has its answer (or its deadline). */
    public void awaitAnswers() throws InterruptedException {
        int max = inFlightMax;
        Check.that(
                inFlight.tryAcquire(max, REQUEST_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS),
                "every call is answered or timed out within its deadline");
        inFlight.release(max);
        synchronized (log) {
            try {
                log.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public long accepted() {
        return acceptedPayments.get();
    }

    public long refused() {
        return refusedPayments.get();
    }

    public long unanswered() {
        return unansweredPayments.get();
    }

    public long dropped() {
        return droppedPayments.get();
    }

    long sent() {
        return sentPayments.get();
    }

    /** The measured window's call latencies in ms, sorted; clears them for the next step. */
    public double[] takeWindowLatenciesMs() {
        return latencies.takeSortedMs();
    }

    @Override
    public void close() throws IOException {
        synchronized (log) {
            log.close();
        }
        for (WireClient client : clients) {
            client.close();
        }
        if (lookupClients != null) {
            for (WireClient client : lookupClients) {
                client.close();
            }
        }
    }
}
