package io.pagora.settlement.domain;

import static io.pagora.settlement.domain.ChartOfAccounts.LEDGER_BRL;
import static io.pagora.settlement.domain.ChartOfAccounts.reserve;
import static io.pagora.settlement.domain.ChartOfAccounts.transit;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.pagora.ledger.port.Transfer;

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
 * <p>Every leg carries the payment id in {@code user_data_128}; ids follow {@link LegId}.
 */
public record SettlementPlan(Payment payment, List<Leg> legs) {

    /** One leg: who is debited and credited, under which transfer code. */
    public record Leg(int number, Id128 debit, Id128 credit, int code) {}

    public static SettlementPlan of(Payment payment) {
        if (payment.onUs()) {
            return new SettlementPlan(payment, List.of(new Leg(1, payment.payer(), payment.payee(), TransferCode.ON_US)));
        }
        BankId payerBank = payment.payerBank();
        BankId payeeBank = payment.payeeBank();
        return new SettlementPlan(payment, List.of(
                new Leg(1, payment.payer(), transit(payerBank), TransferCode.PAYER_TO_TRANSIT),
                new Leg(2, reserve(payerBank), reserve(payeeBank), TransferCode.RESERVE_TO_RESERVE),
                new Leg(3, transit(payeeBank), payment.payee(), TransferCode.TRANSIT_TO_PAYEE)));
    }

    /**
     * The payment a reserved chain settles, from its first pending leg and (interbank) its last: payer, payee and
     * amount as the ledger holds them. Empty when the legs are missing, are not pending, or do not form a chain of
     * this payment's; the caller then treats the id as an unknown payment.
     */
    public static Optional<Payment> reservedPayment(PaymentId id, Transfer first, Transfer last) {
        if (first == null || !first.hasFlag(TransferFlags.PENDING) || !first.userData128().equals(id.value())) {
            return Optional.empty();
        }
        try {
            if (first.code() == TransferCode.ON_US) {
                return Optional.of(new Payment(id, first.debitAccountId(), first.creditAccountId(), first.amount(),
                        first.userData64()));
            }
            if (first.code() != TransferCode.PAYER_TO_TRANSIT || last == null || !last.hasFlag(TransferFlags.PENDING)
                    || last.code() != TransferCode.TRANSIT_TO_PAYEE || !last.userData128().equals(id.value())
                    || last.amount() != first.amount()) {
                return Optional.empty();
            }
            Payment payment = new Payment(id, first.debitAccountId(), last.creditAccountId(), first.amount(),
                    first.userData64());
            return of(payment).legs().getFirst().credit().equals(first.creditAccountId()) ? Optional.of(payment)
                    : Optional.empty();
        } catch (IllegalArgumentException notAPayment) {
            return Optional.empty();
        }
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
            chain.add(NewTransfer.pending(LegId.of(payment.id(), LegId.Phase.PENDING, leg.number()),
                    leg.debit(), leg.credit(), payment.amountCentavos(), timeoutSeconds, LEDGER_BRL, leg.code(),
                    payment.id().value()).withUserData64(payment.acceptedAtMillis()));
        }
        return linkAllButLast(chain);
    }

    /** Posts every pending leg for the full payment amount. */
    public List<NewTransfer> postChain() {
        List<NewTransfer> chain = new ArrayList<>(legs.size());
        for (Leg leg : legs) {
            chain.add(NewTransfer.post(LegId.of(payment.id(), LegId.Phase.POST, leg.number()),
                    LegId.of(payment.id(), LegId.Phase.PENDING, leg.number()), payment.amountCentavos()));
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
            chain.add(NewTransfer.voidPending(LegId.of(payment.id(), LegId.Phase.VOID, leg.number()),
                    LegId.of(payment.id(), LegId.Phase.PENDING, leg.number())).withUserData32(cause.code()));
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
