package io.pagora.reporting.reconciliation.adapter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.reporting.reconciliation.application.Reconciler;
import io.pagora.reporting.reconciliation.application.RoundReport;
import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link Reconciler} rounds on one thread, for as long as the service runs, and exports what they
 * find: {@code pagora_reconciliation_checked_total{check}} ({@code payment}: judged; {@code payment_legs}: of
 * those, looked up in the ledger; {@code account}), {@code pagora_reconciliation_mismatches_total{kind}},
 * {@code pagora_reconciliation_lag_seconds} (how far behind now the payments are all judged, by projection time),
 * {@code pagora_reconciliation_accounts_deferred} (accounts whose balance check waits for the projection to hold
 * its ledger read, or whose disagreement awaits a second cut, in the last round), {@code pagora_reconciliation_last_run_timestamp_seconds} and {@code pagora_reconciliation_rounds_total{result}}.
 * A mismatch is logged as an error (the first few with their evidence); a failing round (the ledger or
 * the database unreachable) keeps what it judged before the failure, is logged and retried after the
 * interval. Neither ever stops the service.
 *
 * <p>Rounds run only while this instance holds the {@link RoundLease} ({@code pagora_reconciliation_leader} 1), asked
 * right before each round. A thread of its own asks (renews) every interval besides, so a round longer than the lease
 * does not lose it; an instance without it asks on that thread too, and takes over once the holder's lease lapses.
 */
public final class ReconciliationJob implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationJob.class);
    /** A round with work left is followed after this pause, so a backlog never monopolises a core. */
    private static final Duration BACKLOG_PAUSE = Duration.ofMillis(200);

    private final Reconciler reconciler;
    private final RoundLease lease;
    private final AtomicLong leader = new AtomicLong();
    private final Clock clock;
    private final Duration interval;
    private final Counter paymentsChecked;
    private final Counter paymentLegsChecked;
    private final Counter accountsChecked;
    private final Counter roundsOk;
    private final Counter roundsFailed;
    private final Map<MismatchKind, Counter> mismatches = new EnumMap<>(MismatchKind.class);
    private final AtomicLong lagMillis = new AtomicLong();
    private final AtomicLong accountsDeferred = new AtomicLong();
    private final AtomicLong lastRunEpochMillis = new AtomicLong();
    private volatile ScheduledExecutorService executor;
    private volatile ScheduledExecutorService renewer;

    public ReconciliationJob(Reconciler reconciler, Clock clock, Duration interval, MeterRegistry meters) {
        this(reconciler, RoundLease.ALWAYS, clock, interval, meters);
    }

    ReconciliationJob(Reconciler reconciler, RoundLease lease, Clock clock, Duration interval, MeterRegistry meters) {
        this.reconciler = reconciler;
        this.lease = lease;
        this.clock = clock;
        this.interval = interval;
        this.paymentsChecked = checked(meters, "payment");
        this.paymentLegsChecked = checked(meters, "payment_legs");
        this.accountsChecked = checked(meters, "account");
        this.roundsOk = rounds(meters, "ok");
        this.roundsFailed = rounds(meters, "failed");
        for (MismatchKind kind : MismatchKind.values()) {
            mismatches.put(
                    kind,
                    Counter.builder("pagora.reconciliation.mismatches")
                            .tag("kind", kind.tag)
                            .description("disagreements between the read model and the ledger found")
                            .register(meters));
        }
        Gauge.builder("pagora.reconciliation.lag", lagMillis, value -> value.get() / 1000.0)
                .baseUnit("seconds")
                .description("now minus the projection time before which every payment is judged")
                .register(meters);
        Gauge.builder("pagora.reconciliation.accounts.deferred", accountsDeferred, AtomicLong::get)
                .description(
                        "accounts waiting for the projection to hold their ledger read, or for a second cut, in the last round")
                .register(meters);
        Gauge.builder("pagora.reconciliation.leader", leader, AtomicLong::get)
                .description("1 while this instance holds the reconciliation's lease and runs its rounds, else 0")
                .register(meters);
        Gauge.builder("pagora.reconciliation.last.run.timestamp", lastRunEpochMillis, value -> value.get() / 1000.0)
                .baseUnit("seconds")
                .description("end of the last successful round (Unix time)")
                .register(meters);
    }

    /**
     * One round, its metrics and its log lines; never throws. A round whose step failed is counted
     * {@code rounds{result=failed}}, and what it judged before the failure is counted and logged all the same.
     * Package-visible for tests.
     */
    RoundReport runRound() {
        RoundReport report;
        try {
            report = reconciler.round();
        } catch (RuntimeException e) {
            roundsFailed.increment();
            log.warn("reconciliation round failed, retrying in {}: {}", interval, e.toString());
            return null;
        }
        paymentsChecked.increment(report.paymentsChecked());
        paymentLegsChecked.increment(report.paymentLegsChecked());
        accountsChecked.increment(report.accountsChecked());
        report.mismatchCounts().forEach((kind, count) -> mismatches.get(kind).increment(count));
        lagMillis.set(Math.max(
                0,
                Duration.between(report.paymentsCheckedThrough(), clock.instant())
                        .toMillis()));
        accountsDeferred.set(report.accountsDeferred());
        if (report.mismatchTotal() > 0) {
            log.error(
                    "RECONCILIATION MISMATCH: the read model and the ledger disagree on {} items this round {}; "
                            + "the first {}:",
                    report.mismatchTotal(),
                    report.mismatchCounts(),
                    report.mismatches().size());
            for (Mismatch mismatch : report.mismatches()) {
                log.error("  {}", mismatch);
            }
        }
        if (report.failed()) {
            roundsFailed.increment();
            log.warn(
                    "reconciliation round failed after judging {} payments and {} accounts (counted), retrying in {}: {}",
                    report.paymentsChecked(),
                    report.accountsChecked(),
                    interval,
                    report.failure());
            return report;
        }
        roundsOk.increment();
        lastRunEpochMillis.set(clock.millis());
        return report;
    }

    private void loop() {
        boolean leading = lease.held();
        leader.set(leading ? 1 : 0);
        RoundReport report = leading ? runRound() : null;
        boolean backlog = report != null && !report.failed() && !report.paymentsCaughtUp();
        ScheduledExecutorService current = executor;
        if (current != null && !current.isShutdown()) {
            current.schedule(this::loop, (backlog ? BACKLOG_PAUSE : interval).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void renew() {
        leader.set(lease.held() ? 1 : 0);
    }

    @Override
    public void start() {
        executor = daemon("reconciliation");
        executor.schedule(this::loop, interval.toMillis(), TimeUnit.MILLISECONDS);
        renewer = daemon("reconciliation-lease");
        renewer.scheduleWithFixedDelay(this::renew, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        log.info("online reconciliation started: a round every {}", interval);
    }

    @Override
    public void stop() {
        ScheduledExecutorService current = executor;
        executor = null;
        if (current == null) {
            return;
        }
        current.shutdownNow();
        renewer.shutdownNow();
        try {
            if (!current.awaitTermination(15, TimeUnit.SECONDS)) {
                log.warn("the reconciliation round did not end within 15 s of shutdown");
            }
            if (!renewer.awaitTermination(15, TimeUnit.SECONDS)) {
                log.warn("the reconciliation lease's renewal did not end within 15 s of shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // After the round's thread: another instance may take over as soon as this one lets go.
        lease.release();
        leader.set(0);
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    private static Counter checked(MeterRegistry meters, String check) {
        return Counter.builder("pagora.reconciliation.checked")
                .tag("check", check)
                .description("payments and account balances found equal in the read model and the ledger, or reported")
                .register(meters);
    }

    private static Counter rounds(MeterRegistry meters, String result) {
        return Counter.builder("pagora.reconciliation.rounds")
                .tag("result", result)
                .description("reconciliation rounds")
                .register(meters);
    }
}
