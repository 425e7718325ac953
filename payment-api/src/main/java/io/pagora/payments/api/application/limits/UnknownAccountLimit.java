package io.pagora.payments.api.application.limits;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.access.Caller;
import java.util.Optional;

/**
 * Limits, per participant, the answers that tell whether another bank's customer account exists, so that no bank
 * can enumerate another's customers (PIX's DICT limits key look-ups per participant for the same reason). Each
 * {@code unknown-account} answer about a payee at another bank takes a token from the caller's bucket; while the
 * bucket is empty, EVERY payment of that caller to another bank's customer is refused with
 * {@code 429 unknown-account-limit} before its payee is looked up, so the refusal depends only on the caller's own
 * past and says nothing about the payee. A bank's own customers are no secret to it: payments to them are never
 * limited; nor are payments whose payee exists (they move money).
 */
public final class UnknownAccountLimit {

    private final ParticipantBuckets buckets;

    public UnknownAccountLimit(ParticipantBuckets buckets) {
        this.buckets = buckets;
    }

    /**
     * Before the look-up: why this order is refused without one, if its caller has spent its allowance, with when a
     * token is back (Retry-After).
     */
    public Optional<Refusal> refusal(Caller caller, PaymentRequest request) {
        if (!atAnotherBank(caller, request.payee())) {
            return Optional.empty();
        }
        if (!buckets.track(caller)) {
            return Optional.of(
                    Refusal.retryAfter(
                            RefusalReason.UNKNOWN_ACCOUNT_LIMIT,
                            1,
                            "payment-api counts the"
                                    + " unknown-account answers of at most " + buckets.participantsMax()
                                    + " participants (pagora."
                                    + "payments.unknown-account-limit.participants-max) and all are taken; nothing was done with this one"));
        }
        long retryAfterSeconds = buckets.secondsUntil(caller, 1);
        if (retryAfterSeconds == 0) {
            return Optional.empty();
        }
        return Optional.of(Refusal.retryAfter(
                RefusalReason.UNKNOWN_ACCOUNT_LIMIT,
                retryAfterSeconds,
                "too many payments"
                        + " to accounts that do not exist at other banks; payments to other banks' customers are refused for "
                        + retryAfterSeconds + " s: nothing was done with this one"));
    }

    /**
     * After the look-up: an answer that told the caller another bank's account does not exist costs a token, into
     * debt if need be (a batch may have spent several at once). Only after {@link #refusal} let the order through.
     */
    public void answered(Caller caller, PaymentRequest request, Refusal problem) {
        if (problem.type() == RefusalReason.UNKNOWN_ACCOUNT
                && "payeeAccountId".equals(problem.field())
                && atAnotherBank(caller, request.payee())) {
            buckets.takeIntoDebt(caller, 1);
        }
    }

    private static boolean atAnotherBank(Caller caller, Id128 payee) {
        return !(caller instanceof Caller.Bank bank)
                || !ChartOfAccounts.bankOf(payee).equals(Optional.of(bank.bank()));
    }
}
