package io.pagora.reporting.application;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.domain.BankId;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The read model's queries. Every list is bounded by its caller's limit. */
public interface ReadModelQueries {

    Optional<PaymentView> payment(Id128 paymentId);

    /**
     * The payment whose request carried this EndToEndId. Requests are not checked for unique ids, so several payments
     * may carry one: the oldest (the lowest payment id, ids being time-ordered) is the one, the same at every call.
     */
    Optional<PaymentView> paymentByEndToEndId(String endToEndId);

    /** The returns of {@code original}: the oldest {@link Returns#LISTED_MAX}, and the totals over all. */
    Returns returnsOf(Id128 original);

    /**
     * Settled movements of an account, newest first, keyset-paginated.
     *
     * @param after the last entry of the previous page, or null for the first page
     * @param limit 1..{@link StatementCursor#LIMIT_MAX}
     */
    StatementPage statement(Id128 accountId, StatementCursor after, int limit);

    BankPosition position(int ispb, LocalDate utcDate);

    /**
     * The payments {@code bank} is party to (its account is the payer or the payee), newest first (payment
     * ids are time-ordered); {@code status} null for all.
     */
    List<PaymentSummary> recentPayments(BankId bank, PaymentStatus status, int limit);

    Stats stats();

    /**
     * @param reason and detail null unless REJECTED; finalAt null while ACCEPTED; request fields null until projected
     * @param returnOf the payment this one returns, null unless it is a return
     * @param returnReason why it returns it (a PIX return reason code), null unless it is a return
     * @param returns a payment's own returns (not a return's): null for a return
     */
    record PaymentView(
            Id128 paymentId,
            PaymentStatus status,
            Id128 payerAccountId,
            Id128 payeeAccountId,
            Integer payerBankIspb,
            Integer payeeBankIspb,
            long amountCentavos,
            String currency,
            String description,
            String endToEndId,
            Instant acceptedAt,
            Instant requestedProjectedAt,
            String reason,
            String detail,
            Instant finalAt,
            Id128 returnOf,
            String returnReason,
            Returns returns) {

        public PaymentView withReturns(Returns returns) {
            return new PaymentView(
                    paymentId,
                    status,
                    payerAccountId,
                    payeeAccountId,
                    payerBankIspb,
                    payeeBankIspb,
                    amountCentavos,
                    currency,
                    description,
                    endToEndId,
                    acceptedAt,
                    requestedProjectedAt,
                    reason,
                    detail,
                    finalAt,
                    returnOf,
                    returnReason,
                    returns);
        }
    }

    /**
     * A payment's returns as projected: the oldest {@link #LISTED_MAX} of them, and the totals over all of them.
     *
     * @param count every return of the payment, of any status
     * @param settledCentavos returned and settled
     * @param inFlightCentavos returns accepted and not final yet (they hold their amount in the ledger)
     */
    record Returns(List<ReturnSummary> listed, long count, long settledCentavos, long inFlightCentavos) {
        public static final int LISTED_MAX = 100;
    }

    /** @param returnId the return's PIX return id (D…), null until its request is projected */
    record ReturnSummary(
            Id128 paymentId,
            String returnId,
            long amountCentavos,
            String reason,
            PaymentStatus status,
            Instant acceptedAt,
            Instant finalAt) {}

    enum Direction {
        /** The account paid: it was the payer. */
        DEBIT,
        /** The account was paid: it was the payee. */
        CREDIT
    }

    /** @param returnOf the payment this entry's payment returns, and {@code returnReason} why; null for a payment */
    record StatementEntry(
            Instant settledAt,
            Id128 paymentId,
            Direction direction,
            Id128 counterpartyAccountId,
            long amountCentavos,
            Id128 returnOf,
            String returnReason) {

        public StatementCursor cursor() {
            return new StatementCursor(settledAt, paymentId, direction);
        }
    }

    /** @param next the cursor of the following page, or null on the last page */
    record StatementPage(List<StatementEntry> entries, StatementCursor next) {}

    /**
     * A bank's settled payments on one UTC day. Interbank payments only in sent/received/net; on-us
     * payments (payer and payee at this bank) move no reserve money, so they are reported apart.
     */
    record BankPosition(
            int ispb,
            LocalDate date,
            long sentCentavos,
            long sentCount,
            long receivedCentavos,
            long receivedCount,
            long onUsCentavos,
            long onUsCount) {

        /** What the bank's reserve gained from the day's interbank payments: received − sent. */
        public long netCentavos() {
            return Math.subtractExact(receivedCentavos, sentCentavos);
        }
    }

    record PaymentSummary(
            Id128 paymentId,
            PaymentStatus status,
            Id128 payerAccountId,
            Id128 payeeAccountId,
            long amountCentavos,
            Instant acceptedAt,
            Instant finalAt) {}

    /** @param maxFinalAt the newest outcome projected, null before the first */
    record Stats(Map<PaymentStatus, Long> counts, Instant maxFinalAt, Instant lastProjectedAt) {

        public long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
