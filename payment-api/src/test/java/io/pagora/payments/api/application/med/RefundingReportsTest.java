package io.pagora.payments.api.application.med;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.events.PaymentRequested;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.adapter.ledger.LedgerOriginalPayments;
import io.pagora.payments.api.application.intake.MutableClock;
import io.pagora.payments.api.application.intake.PaymentPublisher;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.med.InfractionReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.application.HoldingFunds;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.settlement.domain.med.HoldIds;
import io.pagora.settlement.domain.med.RefundOutcome;
import io.pagora.settlement.domain.med.TraceLimits;
import io.pagora.testing.ledger.MoneyInvariants;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The refund of an accepted report, on the reference ledger and an in-memory store (docs/med.md). */
class RefundingReportsTest {

    static final BankId VICTIMS = new BankId(10_001_111);
    static final BankId FRAUDSTERS = new BankId(10_002_222);
    static final BankId MULES = new BankId(10_003_333);
    static final BankId OUTSIDER = new BankId(10_004_444);
    static final Duration HOLD = Duration.ofDays(11);

    final ReferenceLedger ledger = ReferenceLedger.onWallClock();
    final Participants participants = new Participants(ledger);
    final Settlement settlement = new Settlement(ledger, 60);
    final TimeOrderedIds ids = new TimeOrderedIds();
    final AtomicLong transfers = new AtomicLong(1);
    final InMemoryReportStore store = new InMemoryReportStore();
    final List<InfractionReport> told = new ArrayList<>();
    final Publisher publisher = new Publisher();
    final MutableClock clock = new MutableClock(Instant.now());
    final Set<Id128> accounts = new java.util.LinkedHashSet<>();
    final CountingLedger counted = new CountingLedger(ledger);
    final MedPolicy policy =
            new MedPolicy(Duration.ofDays(80), Duration.ofDays(7), HOLD.minusDays(7), new TraceLimits(3, 32, 32));

    FilingReports filing;
    AnalysingReports analysing;
    RefundingReports refunding;
    Id128 victim;
    Id128 f1;
    Id128 f2;
    Id128 f3;
    Payment fraud;

    /** Victim → f1 (1,000); f1 → f2 (600, another bank); f2 → f3 (300, back at f1's bank): they keep 400, 300, 300. */
    @BeforeEach
    void scam() {
        participants.openCentralBank();
        for (BankId bank : List.of(VICTIMS, FRAUDSTERS, MULES, OUTSIDER)) {
            participants.registerBank(bank);
            participants.fundReserve(new Id128(9, transfers.getAndIncrement()), bank, 1_000_000);
            accounts.addAll(List.of(
                    ChartOfAccounts.reserve(bank), ChartOfAccounts.transit(bank), ChartOfAccounts.fraudHolds(bank)));
        }
        accounts.add(ChartOfAccounts.centralBank());
        victim = customer(VICTIMS, 1, 5_000);
        f1 = customer(FRAUDSTERS, 1, 0);
        f2 = customer(MULES, 1, 0);
        f3 = customer(FRAUDSTERS, 2, 0);
        fraud = settled(victim, f1, 1_000);
        settled(f1, f2, 600);
        settled(f2, f3, 300);
        LedgerOriginalPayments originals = new LedgerOriginalPayments(ledger);
        ReportNotices notices = told::add;
        filing = new FilingReports(originals, store, notices, new HoldingFunds(ledger), policy, clock);
        analysing = new AnalysingReports(store, notices, new HoldingFunds(ledger), clock);
        refunding = new RefundingReports(
                new LedgerOriginalPayments(counted),
                store,
                notices,
                new HoldingFunds(counted),
                publisher,
                Duration.ofSeconds(60),
                clock);
    }

    @AfterEach
    void moneyInvariants() {
        Set<Id128> all = new java.util.LinkedHashSet<>(accounts);
        all.add(ChartOfAccounts.returnsControl());
        all.add(ChartOfAccounts.returnable(fraud.id()));
        List<Id128> existing = ledger.lookupAccounts(List.copyOf(all)).stream()
                .map(io.pagora.ledger.port.Account::id)
                .toList();
        MoneyInvariants.check(ledger, existing, "after the refund");
    }

    @Test
    void eachHoldPaysItsShareInTraceOrderAsAnFr01ReturnAndTheRestIsReleased() {
        PaymentId report = acceptedReport();

        counted.requests = 0;
        RefundingReports.Refunding refunded = refunding.refund(bank(VICTIMS), report, OptionalLong.of(700));

        InfractionReport after = ((RefundingReports.Refunding.Refunded) refunded).report();
        assertThat(after).as("answered as stored").isEqualTo(store.find(report).orElseThrow());
        assertThat(after.status()).isEqualTo(ReportStatus.REFUNDED);
        assertThat(counted.requests)
                .as("the payment's legs and returnable account, the returns accounts, the opening and the chains, the"
                        + " release of the hold that paid nothing")
                .isEqualTo(5);
        assertThat(after.refund().outcomes()).isEqualTo(Map.of(0, RefundOutcome.RESERVED, 1, RefundOutcome.RESERVED));
        assertThat(publisher.sent)
                .extracting(
                        PaymentRequested::paymentId,
                        PaymentRequested::payerAccountId,
                        PaymentRequested::payeeAccountId,
                        PaymentRequested::amountCentavos,
                        event -> event.returnOf().reason())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                HoldIds.refund(report, 0).toString(),
                                f1.toString(),
                                victim.toString(),
                                400L,
                                ReturnReason.FR01),
                        org.assertj.core.groups.Tuple.tuple(
                                HoldIds.refund(report, 1).toString(),
                                f2.toString(),
                                victim.toString(),
                                300L,
                                ReturnReason.FR01));
        assertThat(available(f3)).as("not refunded: released").isEqualTo(300);
        assertThat(available(f1) + available(f2))
                .as("the refunds pending where the holds were")
                .isZero();
        assertThat(told.getLast().status()).isEqualTo(ReportStatus.REFUNDED);

        // Clearing's part: it finds each return reserved, the victim's bank accepts, it posts.
        List<Payment> returns = publishedReturns();
        assertThat(settlement.reserve(returns)).containsOnly(new ReservationOutcome.Reserved(true));
        assertThat(settlement.post(returns)).containsOnly(new ResolutionOutcome.Posted());
        assertThat(available(victim)).isEqualTo(5_000 - 1_000 + 700);
    }

    @Test
    void aWholeRefundReleasesNothingMoreAndTakesFourLedgerRequests() {
        PaymentId report = acceptedReport();

        counted.requests = 0;
        RefundingReports.Refunding refunded = refunding.refund(bank(VICTIMS), report, OptionalLong.empty());

        assertThat(((RefundingReports.Refunding.Refunded) refunded)
                        .report()
                        .refund()
                        .outcomes())
                .isEqualTo(Map.of(0, RefundOutcome.RESERVED, 1, RefundOutcome.RESERVED, 2, RefundOutcome.RESERVED));
        assertThat(counted.requests)
                .as("every hold paid a share, its chain voided it: nothing left to release")
                .isEqualTo(4);
        assertThat(told.getLast().refund().outcomes()).hasSize(3);
        assertThat(ledger.lookupAccounts(List.of(f1, f2, f3)).stream()
                        .mapToLong(io.pagora.ledger.port.Account::debitsPending)
                        .sum())
                .as("the three returns reserved where the holds were")
                .isEqualTo(1_000);
        List<Payment> returns = publishedReturns();
        assertThat(settlement.reserve(returns)).containsOnly(new ReservationOutcome.Reserved(true));
        assertThat(settlement.post(returns)).containsOnly(new ResolutionOutcome.Posted());
        assertThat(available(victim)).isEqualTo(5_000);
    }

    @Test
    void refusalsMoveNothing() {
        PaymentId open = reported();
        assertThat(problem(refunding.refund(bank(VICTIMS), open, OptionalLong.empty())))
                .isEqualTo(RefusalReason.REPORT_NOT_ACCEPTED);
        PaymentId report = accept(open);
        assertThat(problem(refunding.refund(bank(FRAUDSTERS), report, OptionalLong.empty())))
                .isEqualTo(RefusalReason.NOT_THE_REPORTING_BANK);
        assertThat(problem(refunding.refund(bank(OUTSIDER), report, OptionalLong.empty())))
                .as("as if there were no report")
                .isEqualTo(RefusalReason.REPORT_NOT_FOUND);
        assertThat(problem(refunding.refund(new Caller.Operator(), report, OptionalLong.empty())))
                .isEqualTo(RefusalReason.NOT_THE_REPORTING_BANK);
        assertThat(problem(refunding.refund(bank(VICTIMS), report, OptionalLong.of(1_001))))
                .isEqualTo(RefusalReason.REFUND_EXCEEDS_HELD);
        assertThat(problem(refunding.refund(bank(VICTIMS), report, OptionalLong.of(0))))
                .isEqualTo(RefusalReason.INVALID_AMOUNT);
        clock.set(clock.instant().plus(HOLD.plusSeconds(1)));
        assertThat(problem(refunding.refund(bank(VICTIMS), report, OptionalLong.empty())))
                .isEqualTo(RefusalReason.REFUND_WINDOW_CLOSED);
        assertThat(publisher.sent).isEmpty();
        assertThat(available(f1) + available(f2) + available(f3))
                .as("still held")
                .isZero();
        assertThat(store.find(report).orElseThrow().status()).isEqualTo(ReportStatus.ACCEPTED);
    }

    @Test
    void aPlainReturnFirstLeavesLessToRefund() {
        PaymentId report = acceptedReport();
        Id128 own = f1;
        participants.fundCustomer(new Id128(9, transfers.getAndIncrement()), own, 900);
        Payment plain =
                new Payment(ids.nextPaymentId(), f1, victim, 900, 0, new Payment.ReturnOf(fraud.id(), 1_000, 3));
        assertThat(settlement.reserve(List.of(plain))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(List.of(plain))).containsExactly(new ResolutionOutcome.Posted());

        assertThat(problem(refunding.refund(bank(VICTIMS), report, OptionalLong.empty())))
                .isEqualTo(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        RefundingReports.Refunding refunded = refunding.refund(bank(VICTIMS), report, OptionalLong.of(100));
        assertThat(((RefundingReports.Refunding.Refunded) refunded)
                        .report()
                        .refund()
                        .outcomes())
                .isEqualTo(Map.of(0, RefundOutcome.RESERVED));
        assertThat(available(f2) + available(f3)).as("the rest released").isEqualTo(600);
    }

    @Test
    void aShareTheLedgerRefusesKeepsItsHoldAndTheOthersArePaid() {
        PaymentId report = acceptedReport();
        // The fraudsters' bank's reserve is emptied: it cannot pay its customers' shares back now.
        long reserve = ledger.lookupAccounts(List.of(ChartOfAccounts.reserve(FRAUDSTERS)))
                .getFirst()
                .creditBalanceAvailable();
        assertThat(ledger.createTransfers(List.of(io.pagora.ledger.port.NewTransfer.posted(
                                new Id128(9, transfers.getAndIncrement()),
                                ChartOfAccounts.reserve(FRAUDSTERS),
                                ChartOfAccounts.reserve(OUTSIDER),
                                reserve,
                                ChartOfAccounts.LEDGER_BRL,
                                io.pagora.settlement.domain.TransferCode.RESERVE_TO_RESERVE,
                                Id128.ZERO)))
                        .getFirst())
                .isEqualTo(io.pagora.ledger.port.TransferResult.OK);

        RefundingReports.Refunding refunded = refunding.refund(bank(VICTIMS), report, OptionalLong.empty());

        assertThat(((RefundingReports.Refunding.Refunded) refunded)
                        .report()
                        .refund()
                        .outcomes())
                .isEqualTo(Map.of(
                        0, RefundOutcome.INSUFFICIENT_RESERVE,
                        1, RefundOutcome.RESERVED,
                        2, RefundOutcome.INSUFFICIENT_RESERVE));
        assertThat(publisher.sent).extracting(PaymentRequested::payerAccountId).containsExactly(f2.toString());
        assertThat(available(f1) + available(f3)).as("their holds stand").isZero();
        assertThat(ledger.lookupAccounts(List.of(f1, f3)).stream()
                        .mapToLong(io.pagora.ledger.port.Account::debitsPending)
                        .sum())
                .isEqualTo(700);
    }

    @Test
    void aRefundCutShortIsFinishedWithTheSameReturnsAndAnotherAmountIsRefused() {
        PaymentId report = acceptedReport();
        publisher.failing = true;

        assertThatThrownBy(() -> refunding.refund(bank(VICTIMS), report, OptionalLong.empty()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(store.find(report).orElseThrow().status()).isEqualTo(ReportStatus.REFUNDING);
        assertThat(available(f1) + available(f2) + available(f3))
                .as("reserved for the victim, not free")
                .isZero();

        publisher.failing = false;
        assertThat(refunding.finishUnfinished(Duration.ofSeconds(30)))
                .as("not yet cut short")
                .isZero();
        clock.set(clock.instant().plus(Duration.ofSeconds(31)));
        assertThat(refunding.finishUnfinished(Duration.ofSeconds(30))).isEqualTo(1);
        assertThat(store.find(report).orElseThrow().status()).isEqualTo(ReportStatus.REFUNDED);
        assertThat(publisher.sent)
                .extracting(PaymentRequested::paymentId)
                .as("the three returns the broker did not take, published by the finisher")
                .containsExactly(
                        HoldIds.refund(report, 0).toString(),
                        HoldIds.refund(report, 1).toString(),
                        HoldIds.refund(report, 2).toString());
        assertThat(ledger.lookupAccounts(List.of(f1, f2, f3)).stream()
                        .mapToLong(io.pagora.ledger.port.Account::debitsPending)
                        .sum())
                .as("reserved once")
                .isEqualTo(1_000);

        assertThat(problem(refunding.refund(bank(VICTIMS), report, OptionalLong.of(500))))
                .isEqualTo(RefusalReason.REFUND_ALREADY_REQUESTED);
        assertThat(refunding.refund(bank(VICTIMS), report, OptionalLong.of(1_000)))
                .as("the same amount again: the same refund")
                .isInstanceOf(RefundingReports.Refunding.Refunded.class);
        // Clearing settles them; the books are judged after.
        List<Payment> returns = List.of(0, 1, 2).stream()
                .map(position -> new Payment(
                        HoldIds.refund(report, position),
                        List.of(f1, f2, f3).get(position),
                        victim,
                        List.of(400L, 300L, 300L).get(position),
                        0,
                        new Payment.ReturnOf(fraud.id(), 1_000, ReturnReason.FR01.number)))
                .toList();
        assertThat(settlement.reserve(returns)).containsOnly(new ReservationOutcome.Reserved(true));
        assertThat(settlement.post(returns)).containsOnly(new ResolutionOutcome.Posted());
        assertThat(available(victim)).isEqualTo(5_000);
    }

    /** The returns published to clearing, as clearing reads them. */
    private List<Payment> publishedReturns() {
        return publisher.sent.stream()
                .map(event -> new Payment(
                        PaymentId.parse(event.paymentId()),
                        Id128.parse(event.payerAccountId()),
                        Id128.parse(event.payeeAccountId()),
                        event.amountCentavos(),
                        0,
                        new Payment.ReturnOf(fraud.id(), 1_000, ReturnReason.FR01.number)))
                .toList();
    }

    private PaymentId acceptedReport() {
        return accept(reported());
    }

    private PaymentId reported() {
        clock.set(Instant.now());
        FilingReports.Filing filed =
                filing.file(bank(VICTIMS), new IdempotencyKey("report-1"), fraud.id(), InfractionReason.FRAUD, null);
        InfractionReport report = ((FilingReports.Filing.Filed) filed).report();
        assertThat(report.heldCentavos()).isEqualTo(1_000);
        return report.id();
    }

    private PaymentId accept(PaymentId report) {
        assertThat(analysing.analyse(bank(FRAUDSTERS), report, AnalysingReports.Decision.ACCEPT, null))
                .isInstanceOf(AnalysingReports.Analysis.Decided.class);
        return report;
    }

    private static RefusalReason problem(RefundingReports.Refunding refunding) {
        assertThat(refunding).isInstanceOf(RefundingReports.Refunding.Refused.class);
        return ((RefundingReports.Refunding.Refused) refunding).problem().type();
    }

    private static Caller bank(BankId bank) {
        return new Caller.Bank(bank);
    }

    private long available(Id128 account) {
        return ledger.lookupAccounts(List.of(account)).getFirst().creditBalanceAvailable();
    }

    private Id128 customer(BankId bank, long number, long funding) {
        participants.openCustomers(bank, List.of(number));
        Id128 customer = ChartOfAccounts.customer(bank, number);
        if (funding > 0) {
            participants.fundCustomer(new Id128(9, transfers.getAndIncrement()), customer, funding);
        }
        accounts.add(customer);
        return customer;
    }

    private Payment settled(Id128 payer, Id128 payee, long amount) {
        Payment payment = new Payment(ids.nextPaymentId(), payer, payee, amount);
        assertThat(settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        return payment;
    }

    /** Counts the ledger requests a use case makes. */
    static final class CountingLedger extends io.pagora.ledger.port.ForwardingLedger {
        int requests;

        CountingLedger(io.pagora.ledger.port.Ledger delegate) {
            super(delegate);
        }

        @Override
        public List<io.pagora.ledger.port.AccountResult> createAccounts(
                List<io.pagora.ledger.port.NewAccount> accounts) {
            requests++;
            return super.createAccounts(accounts);
        }

        @Override
        public List<io.pagora.ledger.port.TransferResult> createTransfers(
                List<io.pagora.ledger.port.NewTransfer> transfers) {
            requests++;
            return super.createTransfers(transfers);
        }

        @Override
        public List<io.pagora.ledger.port.Account> lookupAccounts(List<Id128> ids) {
            requests++;
            return super.lookupAccounts(ids);
        }

        @Override
        public List<io.pagora.ledger.port.Transfer> lookupTransfers(List<Id128> ids) {
            requests++;
            return super.lookupTransfers(ids);
        }

        @Override
        public List<io.pagora.ledger.port.Transfer> accountTransfers(
                Id128 account, Sides sides, long timestampAfter, int limit) {
            requests++;
            return super.accountTransfers(account, sides, timestampAfter, limit);
        }
    }

    /** The broker: takes every event, or (failing) none. */
    static final class Publisher implements PaymentPublisher {
        final List<PaymentRequested> sent = new ArrayList<>();
        boolean failing;

        @Override
        public List<Publication> publishAll(List<PaymentRequested> events) {
            if (failing) {
                return events.stream()
                        .<Publication>map(event -> new Publication.NotSent("the broker is down"))
                        .toList();
            }
            sent.addAll(events);
            return events.stream()
                    .<Publication>map(event -> new Publication.Acked())
                    .toList();
        }
    }
}
