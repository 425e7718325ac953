package io.pagora.settlement.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.TraceLimits;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Follows a settled payment's money through the ledger (MED 2.0, docs/med.md). What the first receiving account
 * still holds of it is held there; the rest left it, so the trace reads the account's transfers after the payment
 * arrived ({@code get_account_transfers}), takes the payments that moved money out (their settled first leg), finds
 * where each landed (its last leg's payee, by the derived leg ids) and follows the rest there, shared among the
 * outflows in proportion to their amounts. Hop by hop, to the limits.
 *
 * <p>Every request is bounded: per hop one {@code get_account_transfers} per account still to follow, one
 * {@code lookup_transfers} for the landing legs and whatever {@link Holdable} reads; the payment's own legs once.
 */
public final class TracingFunds {

    /** How much of what was traced to each account of a hop is held there. */
    public interface Holdable {
        /** One amount per node, in order, each at most the node's traced amount. */
        long[] held(List<FundsTrace.Node> hop);
    }

    /** The reported payment is not settled (or not a payment): nothing to trace. */
    public static final class NotSettled extends RuntimeException {
        public NotSettled(PaymentId payment) {
            super("payment " + payment + " has no settled leg to a payee");
        }
    }

    private final Ledger ledger;

    public TracingFunds(Ledger ledger) {
        this.ledger = ledger;
    }

    /** The trace of {@code payment} as the ledger held it at {@code cutTimestamp}, holding what {@code holdable} says. */
    public FundsTrace trace(PaymentId payment, long cutTimestamp, TraceLimits limits, Holdable holdable) {
        Transfer arrival = arrival(payment);
        List<FundsTrace.Node> nodes = new ArrayList<>();
        List<FundsTrace.Node> hop = List.of(new FundsTrace.Node(
                0, 0, arrival.creditAccountId(), arrival.amount(), 0, -1, payment, arrival.timestamp()));
        boolean truncated = false;
        Map<Id128, Long> unshared = new HashMap<>();
        for (int depth = 0; depth <= limits.hopsMax() && !hop.isEmpty(); depth++) {
            long[] held = holdable.held(hop);
            Check.that(held.length == hop.size(), "one held amount per node");
            List<FundsTrace.Node> placed = new ArrayList<>(hop.size());
            for (int i = 0; i < hop.size(); i++) {
                FundsTrace.Node node = hop.get(i);
                long amount = Math.max(0, Math.min(held[i], node.tracedCentavos()));
                placed.add(new FundsTrace.Node(
                        node.position(),
                        node.hop(),
                        node.account(),
                        node.tracedCentavos(),
                        amount,
                        node.parent(),
                        node.via(),
                        node.arrivedAt()));
            }
            nodes.addAll(placed);
            List<FundsTrace.Node> toFollow = placed.stream()
                    .filter(node -> node.tracedCentavos() > node.heldCentavos())
                    .toList();
            if (toFollow.isEmpty()) {
                break;
            }
            if (depth == limits.hopsMax()) {
                truncated = true;
                break;
            }
            Next next = nextHop(payment, toFollow, nodes.size(), cutTimestamp, limits, unshared);
            truncated |= next.truncated();
            hop = next.nodes();
        }
        return new FundsTrace(payment, arrival.amount(), cutTimestamp, nodes, truncated);
    }

    /** The settled leg that paid the payee: leg 3's post (interbank), or the single leg's post (on-us). */
    private Transfer arrival(PaymentId payment) {
        Id128 interbank = LegId.of(payment, LegId.Phase.POST, 3);
        Id128 onUs = LegId.of(payment, LegId.Phase.POST, 1);
        Map<Id128, Transfer> found = byId(ledger.lookupTransfers(List.of(interbank, onUs)));
        Transfer last = found.get(interbank);
        if (last != null && last.code() == TransferCode.TRANSIT_TO_PAYEE) {
            return last;
        }
        Transfer single = found.get(onUs);
        if (single != null && single.code() == TransferCode.ON_US) {
            return single;
        }
        throw new NotSettled(payment);
    }

    private record Next(List<FundsTrace.Node> nodes, boolean truncated) {}

    private record Outflow(FundsTrace.Node from, Transfer firstLeg) {}

    /**
     * The next hop: where what is left to follow went. {@code unshared}: what is left of each outflow (by its first
     * leg's id) that no node has claimed yet, so that two nodes on one account never both follow the same centavos.
     */
    private Next nextHop(
            PaymentId payment,
            List<FundsTrace.Node> toFollow,
            int positionsUsed,
            long cutTimestamp,
            TraceLimits limits,
            Map<Id128, Long> unshared) {
        boolean truncated = false;
        List<Outflow> outflows = new ArrayList<>();
        for (FundsTrace.Node node : toFollow) {
            List<Transfer> page = ledger.accountTransfers(
                    node.account(), Ledger.Sides.DEBITS, node.arrivedAt(), limits.outflowsPerAccountMax());
            truncated |= page.size() == limits.outflowsPerAccountMax()
                    && page.getLast().timestamp() <= cutTimestamp;
            for (Transfer transfer : page) {
                if (transfer.timestamp() <= cutTimestamp && movedMoneyOut(transfer)) {
                    outflows.add(new Outflow(node, transfer));
                }
            }
        }
        // One request: each interbank outflow's last leg (where it landed) and returned-amount leg (whether it is a
        // return), each on-us outflow's returned-amount leg.
        List<Id128> legs = new ArrayList<>(outflows.size() * 2);
        for (Outflow outflow : outflows) {
            PaymentId out = LegId.paymentOf(outflow.firstLeg().id());
            if (outflow.firstLeg().code() == TransferCode.PAYER_TO_TRANSIT) {
                legs.add(LegId.of(out, LegId.Phase.POST, 3));
                legs.add(LegId.of(out, LegId.Phase.POST, 4));
            } else {
                legs.add(LegId.of(out, LegId.Phase.POST, 2));
            }
        }
        Check.that(legs.size() <= Ledger.BATCH_SIZE_MAX, "one request for a hop's landings: %d ids", legs.size());
        Map<Id128, Transfer> landings = byId(ledger.lookupTransfers(legs));
        List<FundsTrace.Node> next = new ArrayList<>();
        for (FundsTrace.Node node : toFollow) {
            List<Outflow> own = outflows.stream()
                    .filter(o -> o.from() == node && !returnsTheReported(o.firstLeg(), payment, landings))
                    .toList();
            long rest = node.tracedCentavos() - node.heldCentavos();
            long[] shares = shares(
                    rest,
                    own.stream()
                            .mapToLong(o -> unshared.getOrDefault(
                                    o.firstLeg().id(), o.firstLeg().amount()))
                            .toArray());
            for (int i = 0; i < own.size(); i++) {
                if (shares[i] == 0) {
                    continue;
                }
                Transfer firstLeg = own.get(i).firstLeg();
                Optional<Transfer> landed = landing(firstLeg, landings);
                if (landed.isEmpty()) {
                    continue;
                }
                if (positionsUsed + next.size() >= limits.accountsMax()) {
                    return new Next(next, true);
                }
                unshared.put(firstLeg.id(), unshared.getOrDefault(firstLeg.id(), firstLeg.amount()) - shares[i]);
                next.add(new FundsTrace.Node(
                        positionsUsed + next.size(),
                        node.hop() + 1,
                        landed.get().creditAccountId(),
                        shares[i],
                        0,
                        node.position(),
                        LegId.paymentOf(landed.get().id()),
                        landed.get().timestamp()));
            }
        }
        return new Next(next, truncated);
    }

    /**
     * A return of the reported payment (its returned-amount leg debits that payment's returnable account): money
     * going back to the victim, never followed nor held.
     */
    private static boolean returnsTheReported(Transfer firstLeg, PaymentId payment, Map<Id128, Transfer> landings) {
        PaymentId out = LegId.paymentOf(firstLeg.id());
        int returnedLeg = firstLeg.code() == TransferCode.PAYER_TO_TRANSIT ? 4 : 2;
        Transfer returned = landings.get(LegId.of(out, LegId.Phase.POST, returnedLeg));
        return returned != null
                && returned.code() == TransferCode.RETURNED_AMOUNT
                && ChartOfAccounts.paymentOfReturnable(returned.debitAccountId())
                        .map(payment::equals)
                        .orElse(false);
    }

    /** A settled payment out of the account: the post of its first leg (interbank) or of its single leg (on-us). */
    private static boolean movedMoneyOut(Transfer transfer) {
        return transfer.hasFlag(TransferFlags.POST_PENDING_TRANSFER)
                && (transfer.code() == TransferCode.PAYER_TO_TRANSIT || transfer.code() == TransferCode.ON_US);
    }

    private static Optional<Transfer> landing(Transfer firstLeg, Map<Id128, Transfer> landings) {
        if (firstLeg.code() == TransferCode.ON_US) {
            return Optional.of(firstLeg);
        }
        return Optional.ofNullable(landings.get(LegId.of(LegId.paymentOf(firstLeg.id()), LegId.Phase.POST, 3)));
    }

    /**
     * {@code rest} shared among outflows of {@code amounts}: all of each when they add up to no more than it; else in
     * proportion, rounded down, the centavos left one each to the first outflows.
     */
    static long[] shares(long rest, long[] amounts) {
        long[] shares = new long[amounts.length];
        BigInteger total = BigInteger.ZERO;
        for (long amount : amounts) {
            total = total.add(BigInteger.valueOf(amount));
        }
        if (total.compareTo(BigInteger.valueOf(rest)) <= 0) {
            return amounts.clone();
        }
        long given = 0;
        for (int i = 0; i < amounts.length; i++) {
            shares[i] = BigInteger.valueOf(rest)
                    .multiply(BigInteger.valueOf(amounts[i]))
                    .divide(total)
                    .longValueExact();
            given += shares[i];
        }
        for (int i = 0; given < rest && i < amounts.length; i++) {
            if (shares[i] < amounts[i]) {
                shares[i]++;
                given++;
            }
        }
        Check.that(given == rest, "shared %d of %d", given, rest);
        return shares;
    }

    private static Map<Id128, Transfer> byId(List<Transfer> transfers) {
        Map<Id128, Transfer> byId = new HashMap<>();
        transfers.forEach(transfer -> byId.put(transfer.id(), transfer));
        return byId;
    }
}
