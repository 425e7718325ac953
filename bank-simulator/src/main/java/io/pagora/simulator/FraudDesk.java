package io.pagora.simulator;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * A simulated bank's fraud desk (docs/med.md): files an infraction report on a share of the payments its customers made
 * once they settled, and, when it files any, analyses the reports on payments to its customers, accepting a share of
 * them, and asks for the refund of each of its reports the other bank accepted. One call at a time from a bounded
 * queue, each retried a bounded number of times.
 */
final class FraudDesk {

    static final int CALLS_QUEUED_MAX = 10_000;
    static final int ATTEMPTS_MAX = 5;

    /**
     * @param reportShare of its customers' settled payments, the share the bank reports (0..1)
     * @param acceptShare of the reports it analyses, the share it accepts (0..1)
     */
    record Med(double reportShare, double acceptShare) {
        static final Med NONE = new Med(0, 0);

        Med {
            if (reportShare < 0 || reportShare > 1 || acceptShare < 0 || acceptShare > 1) {
                throw new IllegalArgumentException(
                        "report and accept shares are 0..1: " + reportShare + ", " + acceptShare);
            }
        }
    }

    enum Kind {
        FILE,
        ANALYSE,
        REFUND
    }

    /** A report to file ({@code reportId} null), to analyse, or to have refunded. */
    record Call(Kind kind, String paymentId, String reportId, int attempts) {
        Call again() {
            return new Call(kind, paymentId, reportId, attempts + 1);
        }
    }

    private final String ispb;
    private final SwitchClient client;
    private final Metrics metrics;
    private final Med med;
    private final BooleanSupplier down;
    private final BooleanSupplier running;
    private final BlockingQueue<Call> calls = new ArrayBlockingQueue<>(CALLS_QUEUED_MAX);

    FraudDesk(
            String ispb, SwitchClient client, Metrics metrics, Med med, BooleanSupplier down, BooleanSupplier running) {
        this.ispb = ispb;
        this.client = client;
        this.metrics = metrics;
        this.med = med;
        this.down = down;
        this.running = running;
    }

    void start(List<Thread> threads) {
        if (med.reportShare() > 0) {
            threads.add(Thread.ofVirtual().name("bank-" + ispb + "-fraud-desk").start(this::send));
        }
    }

    /** A payment's outcome: one of its customers' settled payments is reported, at the report share. */
    void concluded(SwitchClient.Message message) {
        if (med.reportShare() > 0
                && "PAYER".equals(message.role())
                && "SETTLED".equals(message.status())
                && ThreadLocalRandom.current().nextDouble() < med.reportShare()) {
            queue(new Call(Kind.FILE, message.paymentId(), null, 0));
        }
    }

    /**
     * A report on a payment to one of this bank's customers, open: analysed; one of this bank's reports, accepted: its
     * refund asked for; if this bank files reports.
     */
    void reported(SwitchClient.Message message) {
        metrics.count("pagora.simulator.reports.received", ispb, "status", String.valueOf(message.status()));
        if (med.reportShare() > 0 && "PAYEE".equals(message.role()) && "OPEN".equals(message.status())) {
            queue(new Call(Kind.ANALYSE, message.paymentId(), message.reportId(), 0));
        }
        if (med.reportShare() > 0 && "PAYER".equals(message.role()) && "ACCEPTED".equals(message.status())) {
            queue(new Call(Kind.REFUND, message.paymentId(), message.reportId(), 0));
        }
    }

    private void queue(Call call) {
        if (!calls.offer(call)) {
            metrics.count("pagora.simulator.med.calls", ispb, "status", "dropped");
        }
    }

    private void send() {
        while (running.getAsBoolean()) {
            Call call = null;
            try {
                call = calls.take();
                if (down.getAsBoolean()) {
                    queue(call);
                    Thread.sleep(200);
                    continue;
                }
                int status;
                String kind;
                switch (call.kind()) {
                    case FILE -> {
                        kind = "report";
                        status = client.fileReport(
                                "report-" + call.paymentId(), ProtocolJson.reportRequest(call.paymentId()));
                    }
                    case ANALYSE -> {
                        // The same decision however often it is sent: a bank decides a report once.
                        boolean accept = Math.floorMod(call.reportId().hashCode(), 10_000) < med.acceptShare() * 10_000;
                        kind = accept ? "accept" : "reject";
                        status = client.analyse(call.reportId(), ProtocolJson.analysis(accept));
                    }
                    case REFUND -> {
                        kind = "refund";
                        status = client.refund(call.reportId());
                    }
                    default -> throw new IllegalStateException("a call of no kind: " + call);
                }
                metrics.count("pagora.simulator.med.calls", ispb, "call", kind, "status", Integer.toString(status));
                if ((status == 429 || status == 503) && call.attempts() + 1 < ATTEMPTS_MAX) {
                    Thread.sleep(500);
                    queue(call.again());
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                metrics.count("pagora.simulator.med.calls", ispb, "status", "io-error");
                if (call != null && call.attempts() + 1 < ATTEMPTS_MAX) {
                    queue(call.again());
                }
            }
        }
    }
}
