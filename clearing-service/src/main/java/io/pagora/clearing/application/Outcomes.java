package io.pagora.clearing.application;

import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.events.ReturnOf;
import io.pagora.events.ReturnReason;
import io.pagora.events.participant.RefusalCode;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.VoidCause;
import java.time.Clock;
import java.time.Instant;

/**
 * The outcome factory every use case shares: a payment's one outcome, built from its request (the requests and
 * expiry paths) or from its chain read back from the ledger with the end-to-end id that travelled with it (the
 * answer and instructed-expiry paths: the ledger keeps no end-to-end id). Stamped with the clock's instant.
 */
public final class Outcomes {

    /** The detail of a refusal whose reason an earlier attempt received (the ledger keeps the cause, not the text). */
    public static final String REFUSED_EARLIER = "refused by the receiving bank (answered to an earlier attempt)";

    private final Clock clock;

    public Outcomes(Clock clock) {
        this.clock = clock;
    }

    public PaymentSettled settled(ClearingRequest request) {
        PaymentRequested event = request.event();
        return new PaymentSettled(
                event.paymentId(),
                event.payerAccountId(),
                event.payeeAccountId(),
                event.amountCentavos(),
                event.acceptedAt(),
                clock.instant(),
                event.returnOf(),
                event.endToEndId());
    }

    public PaymentRejected rejected(ClearingRequest request, RejectionReason reason, String detail) {
        PaymentRequested event = request.event();
        return new PaymentRejected(
                event.paymentId(),
                event.payerAccountId(),
                event.payeeAccountId(),
                event.amountCentavos(),
                reason,
                detail,
                event.acceptedAt(),
                clock.instant(),
                event.returnOf(),
                event.endToEndId());
    }

    public PaymentExpired expired(ClearingRequest request) {
        PaymentRequested event = request.event();
        return new PaymentExpired(
                event.paymentId(),
                event.payerAccountId(),
                event.payeeAccountId(),
                event.amountCentavos(),
                event.acceptedAt(),
                clock.instant(),
                event.returnOf(),
                event.endToEndId());
    }

    /** A voided chain's outcome, by the cause its void legs record; {@code refusal} is the bank's reason, if known. */
    public PaymentOutcome voided(ClearingRequest request, VoidCause cause, String refusal) {
        return switch (cause) {
            case RECEIVING_BANK_REFUSED ->
                rejected(
                        request, RejectionReason.RECEIVING_BANK_REFUSED, refusal.isEmpty() ? REFUSED_EARLIER : refusal);
            case UNANSWERED -> expired(request);
        };
    }

    public PaymentSettled settled(Payment payment, String endToEndId) {
        return new PaymentSettled(
                payment.id().toString(),
                payment.payer().toString(),
                payment.payee().toString(),
                payment.amountCentavos(),
                Instant.ofEpochMilli(payment.acceptedAtMillis()),
                clock.instant(),
                returnOf(payment),
                endToEndId);
    }

    public PaymentRejected rejected(Payment payment, RejectionReason reason, String detail, String endToEndId) {
        return new PaymentRejected(
                payment.id().toString(),
                payment.payer().toString(),
                payment.payee().toString(),
                payment.amountCentavos(),
                reason,
                detail,
                Instant.ofEpochMilli(payment.acceptedAtMillis()),
                clock.instant(),
                returnOf(payment),
                endToEndId);
    }

    public PaymentExpired expired(Payment payment, String endToEndId) {
        return new PaymentExpired(
                payment.id().toString(),
                payment.payer().toString(),
                payment.payee().toString(),
                payment.amountCentavos(),
                Instant.ofEpochMilli(payment.acceptedAtMillis()),
                clock.instant(),
                returnOf(payment),
                endToEndId);
    }

    /** A chain voided before this path came to it: the outcome its void legs' cause records. */
    public PaymentOutcome voidedEarlier(Payment payment, VoidCause cause, String endToEndId) {
        return switch (cause) {
            case RECEIVING_BANK_REFUSED ->
                rejected(payment, RejectionReason.RECEIVING_BANK_REFUSED, REFUSED_EARLIER, endToEndId);
            case UNANSWERED -> expired(payment, endToEndId);
        };
    }

    /** The detail of a participant's refusal: its code, or {@link #REFUSED_EARLIER} when none is known. */
    public static String refusalDetail(RefusalCode code) {
        return code == null ? REFUSED_EARLIER : "refused by the receiving bank: " + code.name();
    }

    public static RejectionReason reasonOf(ReservationOutcome.RefusalReason reason) {
        return switch (reason) {
            case INSUFFICIENT_FUNDS -> RejectionReason.INSUFFICIENT_FUNDS;
            case INSUFFICIENT_RESERVE -> RejectionReason.INSUFFICIENT_RESERVE;
            case UNKNOWN_ACCOUNT -> RejectionReason.UNKNOWN_ACCOUNT;
            case PREVIOUSLY_FAILED -> RejectionReason.PREVIOUSLY_FAILED;
            case RETURN_EXCEEDS_RETURNABLE -> RejectionReason.RETURN_EXCEEDS_RETURNABLE;
            case LEDGER_REFUSED -> RejectionReason.LEDGER_REFUSED;
        };
    }

    /**
     * What a payment read back from the ledger returns, for its outcome: the original and the reason the ledger keeps
     * (not the original's amount, which the return's legs do not hold: 0).
     */
    private static ReturnOf returnOf(Payment payment) {
        if (!payment.isReturn()) {
            return null;
        }
        ReturnReason reason = ReturnReason.ofNumber(payment.returnOf().reasonNumber())
                .orElseThrow(() -> new IllegalStateException("return " + payment.id() + " names reason number "
                        + payment.returnOf().reasonNumber() + ", which no return reason has"));
        return new ReturnOf(
                payment.returnOf().original().toString(), payment.returnOf().originalAmountCentavos(), reason);
    }
}
