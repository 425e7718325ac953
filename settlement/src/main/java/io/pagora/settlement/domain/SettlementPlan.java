package io.pagora.settlement.domain;

import static io.pagora.settlement.domain.ChartOfAccounts.LEDGER_BRL;
import static io.pagora.settlement.domain.ChartOfAccounts.reserve;
import static io.pagora.settlement.domain.ChartOfAccounts.transit;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How one payment settles in the ledger: a linked chain of pending legs, then a linked chain that
 * posts them all (the receiving bank accepted) or voids them all (it refused). A chain that gets
 * neither before {@code timeoutSeconds} expires by itself, and nothing moves.
 *
 * <p>Interbank (payer and payee at different banks), three legs:
 * <ol>
 *   <li>payer → payer bank's transit (the payer is debited; fails on insufficient funds)
 *   <li>payer bank's reserve → payee bank's reserve (interbank settlement; fails on insufficient reserve)
 *   <li>payee bank's transit → payee (the payee is credited)
 * </ol>
 *
 * <p>On-us (same bank), one leg: payer → payee. No interbank money moves, so the reserve leg would be
 * a transfer from a reserve to itself (which the ledger forbids), and the two transit legs would
 * cancel out on the same transit account. One pending transfer keeps the same two-phase guarantee.
 *
 * <p>A return (devolução) is planned as a payment from the original payee to the original payer, plus one more leg,
 * last: the original payment's returnable account → returns control, for the amount returned. The returnable account
 * is limited and holds what is left to return ({@link #returnableOpening}), so a return beyond it fails that leg
 * (exceeds_credits) and with it the whole chain: the ledger enforces the limit, pending returns included, and a
 * return voided or expired releases its amount.
 *
 * <p>Every leg carries the payment id in {@code user_data_128}; ids follow {@link LegId}.
 */
public record SettlementPlan(Payment payment, List<Leg> legs) {

    /** One leg: who is debited and credited, under which transfer code. */
    public record Leg(int number, Id128 debit, Id128 credit, int code) {}

    public static SettlementPlan of(Payment payment) {
        List<Leg> legs = new ArrayList<>(LegId.LEGS_MAX);
        if (payment.onUs()) {
            legs.add(new Leg(1, payment.payer(), payment.payee(), TransferCode.ON_US));
        } else {
            BankId payerBank = payment.payerBank();
            BankId payeeBank = payment.payeeBank();
            legs.add(new Leg(1, payment.payer(), transit(payerBank), TransferCode.PAYER_TO_TRANSIT));
            legs.add(new Leg(2, reserve(payerBank), reserve(payeeBank), TransferCode.RESERVE_TO_RESERVE));
            legs.add(new Leg(3, transit(payeeBank), payment.payee(), TransferCode.TRANSIT_TO_PAYEE));
        }
        if (payment.isReturn()) {
            legs.add(new Leg(
                    legs.size() + 1,
                    ChartOfAccounts.returnable(payment.returnOf().original()),
                    ChartOfAccounts.returnsControl(),
                    TransferCode.RETURNED_AMOUNT));
        }
        return new SettlementPlan(payment, List.copyOf(legs));
    }

    /**
     * A return's first step, before its chain: returns control → the original payment's returnable account, for the
     * original's amount. Its id derives from the original's, so every return of one payment opens the account with
     * the same transfer, and the ledger applies it once ({@code exists} after). Its {@code user_data_128} is zero, not
     * the original's id: the original's legs are the only transfers that carry it.
     */
    public NewTransfer returnableOpening() {
        Check.that(
                payment.isReturn() && payment.returnOf().originalAmountCentavos() > 0,
                "only a return with its original's amount opens a returnable account: %s",
                payment);
        PaymentId original = payment.returnOf().original();
        return NewTransfer.posted(
                LegId.returnableOpening(original),
                ChartOfAccounts.returnsControl(),
                ChartOfAccounts.returnable(original),
                payment.returnOf().originalAmountCentavos(),
                LEDGER_BRL,
                TransferCode.RETURNABLE_OPENING,
                Id128.ZERO);
    }

    /** Why the ledger refused leg {@code number} for lack of credit: whose balance it debits. */
    public ReservationOutcome.RefusalReason exceedsCreditsReason(int number) {
        return switch (legs.get(number - 1).code()) {
            case TransferCode.RESERVE_TO_RESERVE -> ReservationOutcome.RefusalReason.INSUFFICIENT_RESERVE;
            case TransferCode.RETURNED_AMOUNT -> ReservationOutcome.RefusalReason.RETURN_EXCEEDS_RETURNABLE;
            default -> ReservationOutcome.RefusalReason.INSUFFICIENT_FUNDS;
        };
    }

    /**
     * The payment a reserved chain settles, from its first pending leg and (interbank) its last: payer, payee and
     * amount as the ledger holds them. Empty when the legs are missing, are not pending, or do not form a chain of
     * this payment's; the caller then treats the id as an unknown payment.
     */
    public static Optional<Payment> reservedPayment(PaymentId id, Transfer first, Transfer last) {
        return reservedPayment(id, first, last, null);
    }

    /**
     * As {@link #reservedPayment(PaymentId, Transfer, Transfer)}, for a chain that may be a return: {@code returned}
     * is the pending leg after the payment's own (leg 2 on-us, 4 interbank), or null. A return is read back with its
     * original (from the returnable account the leg debits), not the original's amount.
     */
    public static Optional<Payment> reservedPayment(PaymentId id, Transfer first, Transfer last, Transfer returned) {
        if (first == null
                || !first.hasFlag(TransferFlags.PENDING)
                || !first.userData128().equals(id.value())) {
            return Optional.empty();
        }
        try {
            Payment.ReturnOf returnOf = returnOf(id, first, returned);
            if (first.code() == TransferCode.ON_US) {
                return Optional.of(new Payment(
                        id,
                        first.debitAccountId(),
                        first.creditAccountId(),
                        first.amount(),
                        first.userData64(),
                        returnOf));
            }
            if (first.code() != TransferCode.PAYER_TO_TRANSIT
                    || last == null
                    || !last.hasFlag(TransferFlags.PENDING)
                    || last.code() != TransferCode.TRANSIT_TO_PAYEE
                    || !last.userData128().equals(id.value())
                    || last.amount() != first.amount()) {
                return Optional.empty();
            }
            Payment payment = new Payment(
                    id, first.debitAccountId(), last.creditAccountId(), first.amount(), first.userData64(), returnOf);
            return of(payment).legs().getFirst().credit().equals(first.creditAccountId())
                    ? Optional.of(payment)
                    : Optional.empty();
        } catch (IllegalArgumentException notAPayment) {
            return Optional.empty();
        }
    }

    /**
     * A chain read back from its pending legs, found by id among (at least) pending legs 1 to {@link LegId#LEGS_MAX}:
     * on-us, leg 2 is a return's returned amount; interbank, leg 4.
     */
    public static Optional<Payment> reservedPayment(PaymentId id, java.util.Map<Id128, Transfer> found) {
        Transfer first = found.get(LegId.of(id, LegId.Phase.PENDING, 1));
        boolean onUs = first != null && first.code() == TransferCode.ON_US;
        return reservedPayment(
                id,
                first,
                found.get(LegId.of(id, LegId.Phase.PENDING, 3)),
                found.get(LegId.of(id, LegId.Phase.PENDING, onUs ? 2 : 4)));
    }

    /** What a reserved chain returns, from its returned-amount leg; null when it has none (not a return). */
    private static Payment.ReturnOf returnOf(PaymentId id, Transfer first, Transfer returned) {
        if (returned == null || returned.code() != TransferCode.RETURNED_AMOUNT) {
            return null;
        }
        if (!returned.hasFlag(TransferFlags.PENDING)
                || !returned.userData128().equals(id.value())
                || returned.amount() != first.amount()
                || !returned.creditAccountId().equals(ChartOfAccounts.returnsControl())) {
            throw new IllegalArgumentException("not this chain's returned-amount leg: " + returned);
        }
        return new Payment.ReturnOf(
                ChartOfAccounts.paymentOfReturnable(returned.debitAccountId())
                        .orElseThrow(() -> new IllegalArgumentException("debits no returnable account: " + returned)),
                0,
                returned.userData32());
    }

    public int legCount() {
        return legs.size();
    }

    public List<NewTransfer> pendingChain(int timeoutSeconds) {
        if (timeoutSeconds <= 0) {
            throw new IllegalArgumentException("a pending chain needs a timeout, or it could hold funds forever");
        }
        List<NewTransfer> chain = new ArrayList<>(legs.size());
        for (Leg leg : legs) {
            NewTransfer pending = NewTransfer.pending(
                            LegId.of(payment.id(), LegId.Phase.PENDING, leg.number()),
                            leg.debit(),
                            leg.credit(),
                            payment.amountCentavos(),
                            timeoutSeconds,
                            LEDGER_BRL,
                            leg.code(),
                            payment.id().value())
                    .withUserData64(payment.acceptedAtMillis());
            // A return's reason travels in its returned-amount leg, so a return read back from the ledger says why.
            chain.add(
                    leg.code() == TransferCode.RETURNED_AMOUNT
                            ? pending.withUserData32(payment.returnOf().reasonNumber())
                            : pending);
        }
        return linkAllButLast(chain);
    }

    /** Posts every pending leg for the full payment amount. */
    public List<NewTransfer> postChain() {
        List<NewTransfer> chain = new ArrayList<>(legs.size());
        for (Leg leg : legs) {
            chain.add(NewTransfer.post(
                    LegId.of(payment.id(), LegId.Phase.POST, leg.number()),
                    LegId.of(payment.id(), LegId.Phase.PENDING, leg.number()),
                    payment.amountCentavos()));
        }
        return linkAllButLast(chain);
    }

    /**
     * Voids every pending leg: the reservation is released and nothing moves. Each void leg records
     * {@code cause} in {@code user_data_32}, so a second void for another cause answers
     * {@code exists_with_different_user_data_32} and the first cause stays the payment's outcome.
     */
    public List<NewTransfer> voidChain(VoidCause cause) {
        List<NewTransfer> chain = new ArrayList<>(legs.size());
        for (Leg leg : legs) {
            chain.add(NewTransfer.voidPending(
                            LegId.of(payment.id(), LegId.Phase.VOID, leg.number()),
                            LegId.of(payment.id(), LegId.Phase.PENDING, leg.number()))
                    .withUserData32(cause.code()));
        }
        return linkAllButLast(chain);
    }

    private static List<NewTransfer> linkAllButLast(List<NewTransfer> chain) {
        for (int i = 0; i < chain.size() - 1; i++) {
            chain.set(i, chain.get(i).withFlags(chain.get(i).flags() | TransferFlags.LINKED));
        }
        return List.copyOf(chain);
    }
}
