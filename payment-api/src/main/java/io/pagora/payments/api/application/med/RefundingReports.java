package io.pagora.payments.api.application.med;

import io.pagora.events.PaymentRequested;
import io.pagora.events.ReturnOf;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Check;
import io.pagora.payments.api.application.intake.PaymentPublisher;
import io.pagora.payments.api.application.intake.PaymentPublisher.Publication;
import io.pagora.payments.api.application.returns.OriginalPayments;
import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.ReturnRules;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.application.HoldingFunds;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.HoldIds;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The payer's bank asks for the refund of an accepted report (MED, docs/med.md): the held money goes back to the
 * victim through the returns flow, as returns of the reported payment for reason {@code FR01}, one per hold that pays
 * a share, each from the account the money is held in; the rest of the holds is released.
 *
 * <p>Each refund's chain starts with the void of its hold, linked to the return's pending legs ({@link
 * HoldingFunds#refund}), so the money is never free to spend in between and a refused chain leaves the hold standing.
 * The returns are then handed to clearing as any return is: it finds them reserved, instructs the victim's bank and
 * posts them on its answer. The original's returnable account holds the line on the total: a refund racing a plain
 * return of the same payment is refused by the ledger for what the other took.
 *
 * <p>Crash-safe in steps, each repeatable: the amount is stored and the report is REFUNDING (a compare-and-set: of two
 * requests racing, one amount is refunded); the refunds are reserved (ids derived from the report's), published, and
 * the holds released; the report is REFUNDED. Asking again, or {@link #finishUnfinished}, finishes what it finds.
 */
public final class RefundingReports {

    private static final Logger log = LoggerFactory.getLogger(RefundingReports.class);

    public sealed interface Refunding {
        record Refunded(InfractionReport report) implements Refunding {}

        record Refused(Refusal problem) implements Refunding {}
    }

    /** Refunds finished per round, at most: the next round takes the rest. */
    static final int UNFINISHED_PER_ROUND_MAX = 64;

    private final OriginalPayments originals;
    private final ReportStore store;
    private final ReportNotices notices;
    private final HoldingFunds holding;
    private final PaymentPublisher publisher;
    private final Duration refundTimeout;
    private final Clock clock;

    /**
     * @param refundTimeout how long a refund's reserved chain lasts in the ledger: long enough for its publication to be
     *     retried and clearing to have it; once instructed, clearing's expiry voids it unanswered as any chain
     */
    public RefundingReports(
            OriginalPayments originals,
            ReportStore store,
            ReportNotices notices,
            HoldingFunds holding,
            PaymentPublisher publisher,
            Duration refundTimeout,
            Clock clock) {
        Check.that(
                refundTimeout.toSeconds() >= 1 && refundTimeout.compareTo(MedPolicy.HOLD_MAX) <= 0,
                "a refund's timeout: %s",
                refundTimeout);
        this.originals = originals;
        this.store = store;
        this.notices = notices;
        this.holding = holding;
        this.publisher = publisher;
        this.refundTimeout = refundTimeout;
        this.clock = clock;
    }

    /** Refunds {@code centavos} of report {@code reportId} (all it holds when empty) to its victim. */
    public Refunding refund(Caller caller, PaymentId reportId, OptionalLong centavos) {
        Optional<InfractionReport> found =
                store.find(reportId).filter(report -> ReadingReports.visible(caller, report));
        if (found.isEmpty() || !found.get().status().filed()) {
            return refused(ReadingReports.notFound(reportId));
        }
        InfractionReport report = found.get();
        if (!(caller instanceof Caller.Bank(BankId bank)) || !bank.equals(report.payerBank())) {
            return refused(Refusal.of(
                    RefusalReason.NOT_THE_REPORTING_BANK,
                    "only the payer's bank, " + report.payerBank() + ", asks for the refund of report " + reportId));
        }
        if (!report.status().accepted()) {
            return refused(Refusal.of(
                    RefusalReason.REPORT_NOT_ACCEPTED,
                    "report " + reportId + " is " + report.status() + ": only an accepted report is refunded"));
        }
        if (report.refund() != null) {
            if (centavos.isPresent() && centavos.getAsLong() != report.refund().centavos()) {
                return refused(Refusal.of(
                        RefusalReason.REFUND_ALREADY_REQUESTED,
                        "report " + reportId + " is refunded " + report.refund().centavos()
                                + " centavos already: a report is refunded once"));
            }
            return new Refunding.Refunded(finish(report, null)); // the same refund again: finished, or finished now
        }
        long held = report.heldCentavos();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // as stored: answered as read later
        if (!now.isBefore(report.holdUntil()) || held == 0) {
            return refused(Refusal.of(
                    RefusalReason.REFUND_WINDOW_CLOSED,
                    held == 0
                            ? "report " + reportId + " holds nothing to refund"
                            : "report " + reportId + "'s holds lapsed at " + report.holdUntil()));
        }
        long amount = centavos.orElse(held);
        if (amount <= 0) {
            return refused(Refusal.ofField(
                    RefusalReason.INVALID_AMOUNT,
                    "amountCentavos",
                    "amountCentavos must be a positive integer, got " + amount));
        }
        if (amount > held) {
            return refused(Refusal.ofField(
                            RefusalReason.REFUND_EXCEEDS_HELD,
                            "amountCentavos",
                            "amountCentavos " + amount + " is more than the " + held + " centavos report " + reportId
                                    + " holds")
                    .withNumber("heldCentavos", held));
        }
        OriginalPayment original = original(report);
        if (amount > original.returnableCentavos()) {
            // What plain returns of the payment left: the ledger would refuse the rest (its returnable account).
            return refused(Refusal.ofField(
                            RefusalReason.RETURN_EXCEEDS_RETURNABLE,
                            "amountCentavos",
                            "amountCentavos " + amount + " is more than the " + original.returnableCentavos()
                                    + " centavos of payment " + report.payment() + " left to return")
                    .withNumber(ReturnRules.RETURNABLE_CENTAVOS, original.returnableCentavos()));
        }
        ReportRefund asked = new ReportRefund(amount, now, Map.of());
        if (!store.refunding(reportId, asked)) {
            return refund(caller, reportId, centavos); // another request came first: answer as it left the report
        }
        return new Refunding.Refunded(finish(report.refunding(ReportStatus.REFUNDING, asked), original));
    }

    /**
     * Finishes the refunds cut short (the bank's call failed or its instance died) more than {@code olderThan} ago, as
     * the bank's retry would. Answers how many it finished.
     */
    public int finishUnfinished(Duration olderThan) {
        int finished = 0;
        for (InfractionReport report : store.unrefunded(clock.instant().minus(olderThan), UNFINISHED_PER_ROUND_MAX)) {
            try {
                finish(report, null);
                finished++;
            } catch (RuntimeException e) {
                // One report failing again (its publication, an alarm) must not keep the others from being finished.
                log.warn(
                        "med: the refund of report {} failed again (retried next round): {}",
                        report.id(),
                        e.toString());
            }
        }
        return finished;
    }

    /** Reserves, publishes and releases a REFUNDING report's refunds, and tells its banks; a REFUNDED one is told. */
    /** {@code original}: the reported payment as just read, or null to read it. */
    private InfractionReport finish(InfractionReport report, OriginalPayment original) {
        InfractionReport current = report;
        if (current.status() == ReportStatus.REFUNDING) {
            Map<Integer, RefundOutcome> outcomes = payOut(current, original == null ? original(current) : original);
            InfractionReport refunded = current.refunding(
                    ReportStatus.REFUNDED,
                    new ReportRefund(
                            current.refund().centavos(), current.refund().requestedAt(), outcomes));
            // Stored: the report is as refunded here; else another request finished it first, as it read then.
            current = store.refunded(current.id(), outcomes)
                    ? refunded
                    : store.find(report.id()).orElseThrow();
        }
        notices.tell(current);
        return current;
    }

    private Map<Integer, RefundOutcome> payOut(InfractionReport report, OriginalPayment original) {
        ReportRefund refund = report.refund();
        FundsTrace trace = report.trace();
        Map<Integer, Long> shares = ReportRefund.shares(trace, refund.centavos());
        Map<Integer, FundsTrace.Node> nodes = new LinkedHashMap<>();
        trace.nodes().forEach(node -> nodes.put(node.position(), node));
        List<HoldingFunds.Refund> refunds = new ArrayList<>(shares.size());
        Map<Integer, RefundOutcome> outcomes = new LinkedHashMap<>();
        shares.forEach((position, share) -> {
            if (nodes.get(position).account().equals(original.payment().payer())) {
                // Money the fraudster sent back to the victim's own account is the victim's: released, not refunded.
                outcomes.put(position, RefundOutcome.HOLD_RELEASED);
                return;
            }
            refunds.add(new HoldingFunds.Refund(
                    position,
                    new Payment(
                            HoldIds.refund(report.id(), position),
                            nodes.get(position).account(),
                            original.payment().payer(),
                            share,
                            refund.requestedAt().toEpochMilli(),
                            new Payment.ReturnOf(
                                    report.payment(), original.payment().amountCentavos(), ReturnReason.FR01.number))));
        });
        List<RefundOutcome> reserved = refunds.isEmpty()
                ? List.of()
                : holding.refund(report.id(), refunds, Math.toIntExact(refundTimeout.toSeconds()));
        List<PaymentRequested> events = new ArrayList<>();
        for (int i = 0; i < refunds.size(); i++) {
            outcomes.put(refunds.get(i).position(), reserved.get(i));
            if (reserved.get(i) == RefundOutcome.RESERVED) {
                events.add(requested(report, refunds.get(i).payment(), refund.requestedAt()));
            }
        }
        if (!events.isEmpty()) {
            List<Publication> published = publisher.publishAll(events);
            for (Publication publication : published) {
                if (!(publication instanceof Publication.Acked)) {
                    // Reserved but maybe not handed to clearing: the finisher publishes again (clearing takes each
                    // once); until then the report stays REFUNDING.
                    throw new IllegalStateException(
                            "report " + report.id() + "'s refunds not published: " + publication);
                }
            }
        }
        // Released: the holds that paid no share here. A share's chain voided its hold (reserved), or found it lapsed
        // or released: nothing to release. A hold the ledger refused to refund from stands until it lapses: the money
        // is the victim's still. No request at all when every hold paid a share.
        Set<Integer> chained = new HashSet<>();
        refunds.forEach(each -> chained.add(each.position()));
        List<FundsTrace.Node> releasing = trace.nodes().stream()
                .map(node -> chained.contains(node.position()) ? node.holding(0) : node)
                .toList();
        holding.release(
                report.id(),
                new FundsTrace(
                        trace.payment(), trace.amountCentavos(), trace.cutTimestamp(), releasing, trace.truncated()));
        return outcomes;
    }

    /** The reported payment, as the ledger holds it: one lookup. */
    private OriginalPayment original(InfractionReport report) {
        OriginalPayment original =
                originals.find(Set.of(report.payment()), payment -> true).get(report.payment());
        Check.that(original != null, "a reported payment the ledger holds: %s", report.payment());
        return original;
    }

    /** The refund as clearing takes it: a return of the reported payment, FR01, with a return id of the payer's bank. */
    private static PaymentRequested requested(InfractionReport report, Payment refund, Instant requestedAt) {
        BankId returning = ChartOfAccounts.bankOf(refund.payer()).orElseThrow();
        return new PaymentRequested(
                refund.id().toString(),
                refund.payer().toString(),
                refund.payee().toString(),
                refund.amountCentavos(),
                "BRL",
                "MED refund of report " + report.id(),
                PixId.generated(PixId.Kind.RETURN, returning, requestedAt, refund.id())
                        .value(),
                requestedAt,
                new ReturnOf(
                        report.payment().toString(), refund.returnOf().originalAmountCentavos(), ReturnReason.FR01));
    }

    private static Refunding refused(Refusal refusal) {
        return new Refunding.Refused(refusal);
    }
}
