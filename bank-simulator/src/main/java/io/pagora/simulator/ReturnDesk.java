package io.pagora.simulator;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated bank's returns (docs/returns.md): of the payments settled to its customers it returns a share, like a
 * customer asking for a refund, never a return it was paid. One call at a time from a bounded queue (past it, a
 * return is dropped and counted, never queued without end), each retried a bounded number of times. The share
 * changes at runtime through the control port: a scripted scenario's payments must not be returned under it.
 */
final class ReturnDesk {

    private static final Logger log = LoggerFactory.getLogger(ReturnDesk.class);

    static final int RETURNS_QUEUED_MAX = 10_000;
    static final int RETURNS_REMEMBERED_MAX = 100_000;
    static final int RETURN_ATTEMPTS_MAX = 5;
    private static final String[] RETURN_REASONS = {"MD06", "BE08", "FR01", "SL02"};

    /** A return this bank will ask for. */
    record Returning(String paymentId, long amountCentavos, String reason, int attempts) {
        Returning again() {
            return new Returning(paymentId, amountCentavos, reason, attempts + 1);
        }
    }

    private final String ispb;
    private final SwitchClient client;
    private final Metrics metrics;
    private final BooleanSupplier down;
    private final BooleanSupplier running;
    private volatile double share;
    private final BlockingQueue<Returning> returns = new ArrayBlockingQueue<>(RETURNS_QUEUED_MAX);
    /** Payment ids of returns instructed to this bank: a return settled to it is never returned (the switch refuses). */
    private final Map<String, Boolean> returnsReceived = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > RETURNS_REMEMBERED_MAX;
        }
    };

    /** @param share of the payments settled to this bank, the share it returns (0..1) */
    ReturnDesk(
            String ispb,
            SwitchClient client,
            Metrics metrics,
            double share,
            BooleanSupplier down,
            BooleanSupplier running) {
        checkShare(share);
        this.ispb = ispb;
        this.client = client;
        this.metrics = metrics;
        this.share = share;
        this.down = down;
        this.running = running;
    }

    /** Always, though the share may be 0 now: the control port may raise it later. */
    void start(List<Thread> threads) {
        threads.add(Thread.ofVirtual().name("bank-" + ispb + "-returns").start(this::send));
    }

    double share() {
        return share;
    }

    /** From now on, of the payments concluded as settled to this bank, the share it returns; returns queued stay. */
    void share(double newShare) {
        checkShare(newShare);
        share = newShare;
        log.info("bank {} now returns {} of the payments settled to it", ispb, newShare);
    }

    private static void checkShare(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("a return share is 0..1: " + share);
        }
    }

    /** An instruction to this bank: a return's id is remembered, so that it is never returned. */
    void instructed(SwitchClient.Message instruction) {
        if (instruction.originalPaymentId() != null) {
            synchronized (returnsReceived) {
                returnsReceived.put(instruction.paymentId(), Boolean.TRUE);
            }
        }
    }

    /** A payment's outcome: one settled to this bank is returned, at the share. */
    void concluded(SwitchClient.Message message) {
        double now = share;
        if (now == 0
                || !"PAYEE".equals(message.role())
                || !"SETTLED".equals(message.status())
                || message.amountCentavos() <= 0
                || ThreadLocalRandom.current().nextDouble() >= now) {
            return;
        }
        synchronized (returnsReceived) {
            if (returnsReceived.containsKey(message.paymentId())) {
                return;
            }
        }
        // Most returns are whole (a refund); some are part of the payment.
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long amount = random.nextInt(10) < 7 ? message.amountCentavos() : Math.max(1, message.amountCentavos() / 2);
        Returning returning =
                new Returning(message.paymentId(), amount, RETURN_REASONS[random.nextInt(RETURN_REASONS.length)], 0);
        if (!returns.offer(returning)) {
            metrics.count("pagora.simulator.returns", ispb, "status", "dropped");
        }
    }

    /** Sends the queued returns one at a time, each with its idempotency key, retried a bounded number of times. */
    private void send() {
        while (running.getAsBoolean()) {
            try {
                Returning returning = returns.take();
                if (down.getAsBoolean()) {
                    // Down: no call at all; the return waits (or is dropped, counted, if the queue filled meanwhile).
                    if (!returns.offer(returning)) {
                        metrics.count("pagora.simulator.returns", ispb, "status", "dropped");
                    }
                    Thread.sleep(200);
                    continue;
                }
                int status = client.returnPayment(
                        returning.paymentId(),
                        "return-" + returning.paymentId(),
                        ProtocolJson.returnRequest(returning.amountCentavos(), returning.reason()));
                metrics.count("pagora.simulator.returns", ispb, "status", Integer.toString(status));
                if ((status == 429 || status == 503) && returning.attempts() + 1 < RETURN_ATTEMPTS_MAX) {
                    Thread.sleep(500);
                    returns.offer(returning.again());
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                metrics.count("pagora.simulator.returns", ispb, "status", "io-error");
            }
        }
    }
}
