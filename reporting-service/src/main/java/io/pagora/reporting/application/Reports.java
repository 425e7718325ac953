package io.pagora.reporting.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries.BankPosition;
import io.pagora.reporting.application.ReadModelQueries.PaymentSummary;
import io.pagora.reporting.application.ReadModelQueries.PaymentView;
import io.pagora.reporting.application.ReadModelQueries.StatementPage;
import io.pagora.reporting.application.ReadModelQueries.Stats;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.AccessRules;
import io.pagora.settlement.domain.access.Caller;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * The read model's queries as a caller may make them (deny by default, settlement's {@link AccessRules}).
 * Every refusal is reported to {@link AccessRefusals}. Two kinds, answered differently:
 * <ul>
 *   <li>An object that is not the caller's (another bank's payment, account or positions) is empty, as a
 *       missing one (404). A payment is read to know its parties, and a refused one reads exactly as an
 *       unknown one. An account or a bank is refused from its id alone (the id names its bank), before any
 *       query, so the answer cannot depend on whether it exists: the ids cannot be probed.</li>
 *   <li>A function the caller may not use at all ({@code /stats} for a bank, the listing for the operator)
 *       is {@link Answer.Forbidden}: it hides nothing, since it depends on the caller alone.</li>
 * </ul>
 */
public final class Reports {

    private final ReadModelQueries queries;
    private final AccessRefusals refusals;

    public Reports(ReadModelQueries queries, AccessRefusals refusals) {
        this.queries = queries;
        this.refusals = refusals;
    }

    /** What a function-level query answers: its value, or the refusal of the function itself. */
    public sealed interface Answer<T> {
        record Granted<T>(T value) implements Answer<T> {}

        record Forbidden<T>(AccessRefusal reason) implements Answer<T> {}
    }

    /**
     * A payment for its payer's or its payee's bank. Empty when it is not projected, or when the caller is
     * neither: the payment must be read to know its parties, and a refused one is then dropped whole.
     */
    public Optional<PaymentView> payment(Caller caller, Id128 paymentId) {
        return readable(caller, queries.payment(paymentId));
    }

    /**
     * A payment by its EndToEndId, on the terms of {@link #payment}: the id is read from the payment's request, which
     * any bank may make, so it proves nothing about the caller; only the payment's parties decide.
     */
    public Optional<PaymentView> paymentByEndToEndId(Caller caller, String endToEndId) {
        Check.that(endToEndId != null && !endToEndId.isEmpty(), "an end-to-end id to look up");
        return readable(caller, queries.paymentByEndToEndId(endToEndId));
    }

    /**
     * An account's settled movements, for the account's bank; empty for any other caller, decided from the id
     * alone, without querying.
     */
    public Optional<StatementPage> statement(Caller caller, Id128 accountId, StatementCursor after, int limit) {
        if (refused(caller, AccessRules.accountHolder(caller, accountId))) {
            return Optional.empty();
        }
        return Optional.of(queries.statement(accountId, after, limit));
    }

    /** A bank's positions, for that bank or the operator; empty for another bank, without querying. */
    public Optional<BankPosition> position(Caller caller, int ispb, LocalDate utcDate) {
        if (refused(caller, AccessRules.bankOrOperator(caller, new BankId(ispb)))) {
            return Optional.empty();
        }
        return Optional.of(queries.position(ispb, utcDate));
    }

    /** The newest payments of the caller's bank (as payer's or payee's); a bank's function only. */
    public Answer<List<PaymentSummary>> recentPayments(Caller caller, PaymentStatus status, int limit) {
        Optional<AccessRefusal> refusal = AccessRules.bankOnly(caller);
        if (refused(caller, refusal)) {
            return new Answer.Forbidden<>(refusal.get());
        }
        Check.that(caller instanceof Caller.Bank, "only a bank lists payments: %s", caller);
        return new Answer.Granted<>(queries.recentPayments(((Caller.Bank) caller).bank(), status, limit));
    }

    /** The switch's counts: the operator's only. */
    public Answer<Stats> stats(Caller caller) {
        Optional<AccessRefusal> refusal = AccessRules.operatorOnly(caller);
        if (refused(caller, refusal)) {
            return new Answer.Forbidden<>(refusal.get());
        }
        return new Answer.Granted<>(queries.stats());
    }

    /**
     * The payment as read, for its payer's or its payee's bank, with its returns unless it is one; empty for anyone
     * else, as if never projected.
     */
    private Optional<PaymentView> readable(Caller caller, Optional<PaymentView> payment) {
        if (payment.isEmpty()) {
            return payment;
        }
        Optional<AccessRefusal> refusal = AccessRules.partyToPayment(
                caller, payment.get().payerAccountId(), payment.get().payeeAccountId());
        if (refused(caller, refusal)) {
            return Optional.empty();
        }
        PaymentView view = payment.get();
        return Optional.of(view.returnOf() != null ? view : view.withReturns(queries.returnsOf(view.paymentId())));
    }

    private boolean refused(Caller caller, Optional<AccessRefusal> refusal) {
        refusal.ifPresent(reason -> refusals.refused(caller, reason));
        return refusal.isPresent();
    }
}
