package io.pagora.simulator;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One participant bank: a reader that follows its stream (dropping duplicates by message id) and schedules an answer
 * per instruction after the behaviour's latency, and a sender that posts due answers in batches of at most
 * {@value #ANSWERS_PER_CALL_MAX}. Like a bank that keeps its answers in memory only, a killed simulator loses the
 * answers it had not sent: those payments expire.
 */
final class SimulatedBank {

    private static final Logger log = LoggerFactory.getLogger(SimulatedBank.class);

    static final int ANSWERS_PER_CALL_MAX = 1000;
    /**
     * Message ids remembered to drop duplicates. A duplicate comes within a lease timeout (30 s at most) of the first
     * delivery: at ~1,200 messages/s per bank that is ~36,000 ids. Bounded by the heap too: an id costs ~130 bytes,
     * and the simulator runs in 256 MB for four banks.
     */
    static final int SEEN_IDS_MAX = 100_000;

    static final int SEND_ATTEMPTS_MAX = 20;
    /**
     * Answering calls in flight per bank at most. Each call waits for the ledger's verdicts (a clearing poll or two),
     * so with few senders due answers queue behind the calls in flight and arrive after the pending timeout; 16
     * (virtual threads) keep that wait short under load.
     */
    static final int SENDERS = 16;
    /** The reason of every refusal: AC06, blocked account. */
    static final String REFUSAL_REASON = "AC06";

    private final String ispb;
    private final SwitchClient client;
    private final Metrics metrics;
    private volatile Behaviour behaviour;
    private volatile boolean running = true;
    private final DelayQueue<DueAnswer> due = new DelayQueue<>();
    // Sized for its bound at once: growing a table of 100,000 ids showed in the simulator's profile.
    private final Map<String, Boolean> seen = new LinkedHashMap<>(SEEN_IDS_MAX * 4 / 3 + 1, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > SEEN_IDS_MAX;
        }
    };
    private final List<Thread> threads = new ArrayList<>();
    private final ReturnDesk returnDesk;
    private final FraudDesk fraudDesk;

    SimulatedBank(String ispb, SwitchClient client, Behaviour behaviour, Metrics metrics) {
        this(ispb, client, behaviour, metrics, 0);
    }

    /** @param returnShare of the payments settled to this bank, the share it returns (0..1) */
    SimulatedBank(String ispb, SwitchClient client, Behaviour behaviour, Metrics metrics, double returnShare) {
        this(ispb, client, behaviour, metrics, returnShare, FraudDesk.Med.NONE);
    }

    SimulatedBank(
            String ispb,
            SwitchClient client,
            Behaviour behaviour,
            Metrics metrics,
            double returnShare,
            FraudDesk.Med med) {
        this.ispb = ispb;
        this.client = client;
        this.behaviour = behaviour;
        this.metrics = metrics;
        BooleanSupplier down = () -> this.behaviour.mode() == Behaviour.Mode.DOWN;
        this.returnDesk = new ReturnDesk(ispb, client, metrics, returnShare, down, () -> running);
        this.fraudDesk = new FraudDesk(ispb, client, metrics, med, down, () -> running);
    }

    void start() {
        threads.add(Thread.ofVirtual().name("bank-" + ispb + "-reader").start(this::read));
        // Several answering calls in flight: each waits for the ledger's verdicts, and answers must not queue behind
        // it.
        for (int i = 0; i < SENDERS; i++) {
            threads.add(Thread.ofVirtual().name("bank-" + ispb + "-sender-" + i).start(this::send));
        }
        returnDesk.start(threads);
        fraudDesk.start(threads);
    }

    void stop() {
        running = false;
        threads.forEach(Thread::interrupt);
    }

    String ispb() {
        return ispb;
    }

    Behaviour behaviour() {
        return behaviour;
    }

    void behave(Behaviour.Mode mode, long slowMs) {
        behaviour = behaviour.withMode(mode, slowMs);
        log.info("bank {} is now {}{}", ispb, mode, mode == Behaviour.Mode.SLOW ? " (+" + slowMs + " ms)" : "");
    }

    double returnShare() {
        return returnDesk.share();
    }

    /** From now on, of the payments concluded as settled to this bank, the share it returns; returns queued stay. */
    void returnShare(double share) {
        returnDesk.share(share);
    }

    int waitingAnswers() {
        return due.size();
    }

    private void read() {
        String next = null;
        while (running) {
            try {
                if (behaviour.mode() == Behaviour.Mode.DOWN) {
                    // Down: no pull at all. The stream lapses at the switch; its unacknowledged messages wait.
                    next = null;
                    Thread.sleep(200);
                    continue;
                }
                SwitchClient.Pulled pulled = next == null ? client.start() : client.pull(next);
                metrics.count("pagora.simulator.pulls", ispb, "status", Integer.toString(pulled.status()));
                if (pulled.status() == 200 || pulled.status() == 204) {
                    pulled.messages().forEach(this::receive);
                    next = pulled.next();
                } else {
                    next = null;
                    Thread.sleep(pulled.status() == 429 ? 1000 : 200);
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                log.debug("bank {}: pull failed: {}", ispb, e.toString());
                metrics.count("pagora.simulator.pull.failures", ispb);
                next = null;
                sleep(500);
            }
        }
    }

    private void receive(SwitchClient.Message message) {
        synchronized (seen) {
            if (seen.put(message.id(), Boolean.TRUE) != null) {
                metrics.count("pagora.simulator.duplicates", ispb);
                return;
            }
        }
        switch (message.type()) {
            case SwitchClient.Message.INSTRUCTION -> instructed(message);
            case SwitchClient.Message.CONCLUDED -> concluded(message);
            case SwitchClient.Message.REPORT -> fraudDesk.reported(message);
            case SwitchClient.Message.HOLD ->
                metrics.count("pagora.simulator.holds", ispb, "status", String.valueOf(message.status()));
            case SwitchClient.Message.LIQUIDITY -> metrics.count("pagora.simulator.liquidity.alerts", ispb);
            case null, default -> metrics.count("pagora.simulator.unknown.messages", ispb);
        }
    }

    private void concluded(SwitchClient.Message message) {
        metrics.count("pagora.simulator.outcomes", ispb, "role", message.role(), "status", message.status());
        fraudDesk.concluded(message);
        returnDesk.concluded(message);
    }

    private void instructed(SwitchClient.Message instruction) {
        returnDesk.instructed(instruction);
        Behaviour now = behaviour;
        // A MED refund (FR01) pays this bank's own customer back what was stolen, as its fraud desk asked: accepted
        // whatever share of payments the bank refuses.
        Behaviour.Decision decision =
                "FR01".equals(instruction.returnReason()) ? Behaviour.Decision.ACCEPT : now.decide();
        metrics.count("pagora.simulator.instructions", ispb, "decision", decision.name());
        if (decision != Behaviour.Decision.NONE) {
            due.add(new DueAnswer(
                    instruction.paymentId(),
                    decision,
                    instruction.acceptedAt(),
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(now.delayMs()),
                    0));
        }
    }

    private void send() {
        while (running) {
            try {
                if (behaviour.mode() == Behaviour.Mode.DOWN) {
                    Thread.sleep(200);
                    continue;
                }
                List<DueAnswer> batch = new ArrayList<>();
                batch.add(due.take());
                due.drainTo(batch, ANSWERS_PER_CALL_MAX - 1);
                post(batch);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void post(List<DueAnswer> batch) throws InterruptedException {
        List<ProtocolJson.Answer> answers = new ArrayList<>(batch.size());
        for (DueAnswer answer : batch) {
            answers.add(
                    answer.decision() == Behaviour.Decision.ACCEPT
                            ? ProtocolJson.Answer.accept(answer.paymentId())
                            : ProtocolJson.Answer.refuse(answer.paymentId(), REFUSAL_REASON));
        }
        try {
            HttpResponse<String> response = client.answer(ProtocolJson.answers(answers));
            if (response.statusCode() != 200) {
                metrics.count("pagora.simulator.answer.calls", ispb, "status", Integer.toString(response.statusCode()));
                retry(batch);
                return;
            }
            metrics.count("pagora.simulator.answer.calls", ispb, "status", "200");
            tally(response.body(), batch);
        } catch (IOException e) {
            metrics.count("pagora.simulator.answer.calls", ispb, "status", "io-error");
            retry(batch);
        }
    }

    /** Counts each answer's verdict: the payment's state, or the problem type that says why it moved nothing. */
    private void tally(String body, List<DueAnswer> batch) {
        List<DueAnswer> again = new ArrayList<>();
        for (ProtocolJson.Verdict verdict : ProtocolJson.verdicts(body, batch.size())) {
            DueAnswer answer = batch.get(verdict.index());
            if (verdict.applied()) {
                observeAcceptToAnswered(answer.acceptedAt());
            } else if (verdict.name().equals("broker-unavailable")) {
                // Nothing was received: that answer goes again. Not on verdict-pending: the answer is stored and
                // will be applied, the stream brings the payment's outcome, and sending it again would only ask
                // clearing to apply it twice while it is behind.
                again.add(answer);
            }
            metrics.count("pagora.simulator.verdicts", ispb, "verdict", verdict.name());
        }
        retry(again);
    }

    /** Acceptance (the instruction's {@code acceptedAt}) to the verdict on the answer; an unreadable time is no sample. */
    private void observeAcceptToAnswered(String acceptedAt) {
        try {
            long millis =
                    Duration.between(Instant.parse(acceptedAt), Instant.now()).toMillis();
            metrics.observe("pagora.simulator.accept.to.answered", ispb, Duration.ofMillis(Math.max(0, millis)));
        } catch (RuntimeException e) {
            metrics.count("pagora.simulator.unreadable.times", ispb);
        }
    }

    private void retry(List<DueAnswer> batch) {
        for (DueAnswer answer : batch) {
            if (answer.attempts() + 1 >= SEND_ATTEMPTS_MAX) {
                metrics.count("pagora.simulator.answers.given.up", ispb);
                continue;
            }
            due.add(answer.again());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An answer waiting for its time. */
    record DueAnswer(String paymentId, Behaviour.Decision decision, String acceptedAt, long dueNanos, int attempts)
            implements Delayed {

        DueAnswer again() {
            return new DueAnswer(
                    paymentId,
                    decision,
                    acceptedAt,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500),
                    attempts + 1);
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(dueNanos, ((DueAnswer) other).dueNanos);
        }
    }
}
