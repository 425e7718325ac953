package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.application.PaymentJudge.Judged;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectedPayment;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectionPosition;
import io.pagora.reporting.reconciliation.domain.LegSample;
import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.reporting.reconciliation.domain.PaymentFinality;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The payment check: payments in projection order ({@link ReconciliationReadModel#paymentsProjectedAfter}), each
 * judged once, whenever its row reaches the read model, once it is {@code finalWithin} past the later of its
 * acceptance and its projection (its pending timeout, the expiry margin and the projection's lag). It must be final
 * then. Its post legs are looked up in the ledger ({@link PaymentFinality}) for a deterministic sample
 * ({@link LegSample}) and for every payment still not final; the balance check covers the others in aggregate. A
 * payment not final yet holds the cursor (it is judged again next round, and the lag grows) until it is
 * {@value #STUCK_AFTER_FINAL_WITHINS} times {@code finalWithin} past its visibility: then it is STUCK. An outage the
 * platform recovers from is lag, not mismatches. Each projection transaction's rows are also compared with the
 * digest the projection wrote for them ({@link ProjectionTally}).
 *
 * <p>A step that throws leaves the cursor where the last judged batch left it. Not thread-safe.
 */
final class PaymentCheck {

    /**
     * A payment still not final this many {@code finalWithin}s after it became visible is STUCK; before that,
     * a non-final payment (a clearing that is down and will recover) holds the cursor and is judged again.
     */
    static final int STUCK_AFTER_FINAL_WITHINS = 5;
    /** Payment rows read from the read model per query. */
    static final int PAYMENTS_PER_READ = 2_048;
    /** Transactions whose rows disagree with their digest whose rows are looked up in the ledger, per judged batch. */
    static final int UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX = 4;

    private final ReconciliationReadModel readModel;
    private final PaymentJudge judge;
    private final ReconciliationSettings settings;
    private final LegSample sample;

    private ProjectionPosition paymentCursor;
    /** The judged rows of the transaction at the cursor, as the projection's digest adds them up. */
    private ProjectionTally tally;
    /** Transactions after this one wrote digests (read once). */
    private Long digestsAfter;
    /** When the payment at the cursor became visible: how far a round stopped by its bound got. */
    private Instant cursorVisibleAt = Instant.EPOCH;
    /** What the last round's payment step could vouch for: a failing step leaves it, so the lag grows. */
    private Instant paymentsCheckedThrough;

    /** {@code startedAt}: now, when the reconciliation starts (it looks back {@code startLookback} from there). */
    PaymentCheck(
            ReconciliationReadModel readModel, PaymentJudge judge, ReconciliationSettings settings, Instant startedAt) {
        this.readModel = readModel;
        this.judge = judge;
        this.settings = settings;
        this.sample = new LegSample(settings.legSamplePerMille());
        this.paymentsCheckedThrough = startedAt.minus(settings.startLookback());
    }

    /** This round's payment step; a failure is recorded in the report, with everything judged before it. */
    void run(Instant now, RoundReport.Builder report) {
        try {
            checkPayments(now, report);
            paymentsCheckedThrough = report.paymentsCheckedThrough;
        } catch (RuntimeException e) {
            report.failed("payments", e);
            report.paymentsCheckedThrough = paymentsCheckedThrough;
        }
    }

    /**
     * Judges the payments after the cursor in projection order, pages of {@value #PAYMENTS_PER_READ} rows read
     * ahead of the judging, a full ledger lookup's worth of sampled payments at a time (the cursor moving past
     * each judged batch); stops at the first row not due yet, or due but not final and not overdue, or at the
     * round's bound.
     */
    private void checkPayments(Instant now, RoundReport.Builder report) {
        if (paymentCursor == null) {
            paymentCursor = readModel.startPosition(now.minus(settings.startLookback()));
            tally = ProjectionTally.startingAt(paymentCursor);
        }
        if (digestsAfter == null) {
            digestsAfter = readModel.digestsAfter();
        }
        Instant dueBefore = now.minus(settings.finalWithin());
        Instant stuckBefore = now.minus(settings.finalWithin().multipliedBy(STUCK_AFTER_FINAL_WITHINS));
        report.paymentsCheckedThrough = dueBefore;
        ProjectionPosition readAfter = paymentCursor;
        List<ProjectedPayment> batch = new ArrayList<>();
        int legged = 0;
        int read = 0;
        while (read < settings.paymentsPerRoundMax()) {
            int limit = Math.min(PAYMENTS_PER_READ, settings.paymentsPerRoundMax() - read);
            List<ProjectedPayment> rows = readModel.paymentsProjectedAfter(readAfter, limit);
            Check.that(rows.size() <= limit, "the read model answered %d payments for %d", rows.size(), limit);
            read += rows.size();
            for (ProjectedPayment row : rows) {
                Instant visibleAt = row.visibleAt();
                boolean due = !visibleAt.isAfter(dueBefore);
                boolean late = row.row().status() == PaymentStatus.ACCEPTED && visibleAt.isAfter(stuckBefore);
                if (!due || late) {
                    // Not due yet (normal: the newest payments), or due and not final (late): judged from here
                    // next round, and the lag grows while it is late.
                    judgeBatch(batch, false, report);
                    report.paymentsCheckedThrough = min(visibleAt, dueBefore);
                    report.paymentsCaughtUp = !due;
                    return;
                }
                batch.add(row);
                if (needsLegs(row.row()) && ++legged == settings.paymentsPerLookup()) {
                    judgeBatch(batch, false, report);
                    batch.clear();
                    legged = 0;
                }
            }
            if (rows.size() < limit) {
                judgeBatch(batch, true, report);
                report.paymentsCaughtUp = true;
                return;
            }
            readAfter = rows.getLast().position();
        }
        // The round's bound: the next round follows soon; the lag says how far behind this one stopped.
        judgeBatch(batch, false, report);
        report.paymentsCheckedThrough = min(cursorVisibleAt, dueBefore);
        report.paymentsCaughtUp = false;
    }

    /** Sampled payments, and payments not final (stuck: their legs are the evidence). */
    private boolean needsLegs(PaymentRow row) {
        return row.status() == PaymentStatus.ACCEPTED || sample.includes(row.paymentId());
    }

    /**
     * Judges a batch (one ledger lookup at most) and the projection transactions it completes, records what it
     * found, then moves the cursor past it: a step that throws leaves the cursor, the tally and the report as they were.
     *
     * @param walkedToEnd whether the batch ends the walk below the oldest running transaction (its last transaction
     *     is then complete)
     */
    private void judgeBatch(List<ProjectedPayment> batch, boolean walkedToEnd, RoundReport.Builder report) {
        List<ProjectionTally.Complete> complete = new ArrayList<>();
        ProjectionTally added = tally.add(batch, complete);
        if (walkedToEnd) {
            added = added.walkedToEnd(complete);
        }
        if (batch.isEmpty() && complete.isEmpty()) {
            return;
        }
        List<PaymentRow> rows = batch.stream().map(ProjectedPayment::row).toList();
        Judged judged = judge.judge(rows, this::needsLegs);
        List<Judged> unprojected = judgeAgainstDigests(complete);
        judged.recordInto(report);
        unprojected.forEach(found -> found.recordPointedInto(report));
        tally = added;
        if (!batch.isEmpty()) {
            paymentCursor = batch.getLast().position();
            cursorVisibleAt = batch.getLast().visibleAt();
        }
    }

    /**
     * Compares each complete transaction's rows with the digest the projection wrote for them. Rows that are not
     * what the projection inserted (planted, lost or changed outside it) are reported, and then, whatever the leg
     * sample, the ledger is asked about that transaction's rows (up to one lookup each, for at most
     * {@value #UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX} transactions per batch): a row the ledger never settled shows as such.
     */
    private List<Judged> judgeAgainstDigests(List<ProjectionTally.Complete> complete) {
        List<ProjectionTally.Complete> compared = complete.stream()
                .filter(c -> Long.compareUnsigned(c.transactionId(), digestsAfter) > 0)
                .toList();
        if (compared.isEmpty()) {
            return List.of();
        }
        Map<Long, ProjectionDigest> written = readModel.digestsOf(
                compared.stream().map(ProjectionTally.Complete::transactionId).toList());
        List<Judged> found = new ArrayList<>();
        for (ProjectionTally.Complete transaction : compared) {
            ProjectionDigest digest = written.getOrDefault(transaction.transactionId(), ProjectionDigest.NONE);
            if (digest.equals(transaction.rows())) {
                continue;
            }
            Mismatch mismatch = new Mismatch(
                    MismatchKind.UNPROJECTED,
                    "projection transaction " + Long.toUnsignedString(transaction.transactionId()),
                    "the read model holds " + describe(transaction.rows()) + " inserted by it, the projection wrote "
                            + describe(digest));
            Judged legs = found.size() < UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX
                    ? judge.judge(
                            readModel.paymentsInsertedBy(transaction.transactionId(), settings.paymentsPerLookup()),
                            row -> !needsLegs(row))
                    : Judged.NONE;
            List<Mismatch> mismatches = new ArrayList<>(List.of(mismatch));
            mismatches.addAll(legs.mismatches());
            found.add(new Judged(0, legs.legsChecked(), mismatches));
        }
        return found;
    }

    private static String describe(ProjectionDigest digest) {
        return digest.payments() + " payments of " + digest.amountCentavos() + " centavos (fingerprint "
                + Long.toHexString(digest.fingerprint()) + ")";
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
