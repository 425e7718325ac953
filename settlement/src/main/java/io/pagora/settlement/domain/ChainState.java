package io.pagora.settlement.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the ledger holds for one payment's chain, read back by its deterministic leg ids. This is the
 * truth every ambiguous answer is resolved against: an integrity alarm is never reported as a refusal
 * before the ledger has been asked.
 */
public sealed interface ChainState {

    /** No leg of the payment exists: nothing was reserved. */
    record Absent() implements ChainState {}

    /**
     * Every pending leg exists and belongs to this payment, and none is posted or voided: the chain
     * is reserved (or has expired; the ledger says which when it is posted or voided), with whatever
     * timeout the configuration named when it was reserved. {@code expiresAtNanos} (ledger time, epoch
     * nanoseconds) is when its first leg lapses, its pending timestamp plus its timeout: the ledger
     * refuses a post or void from then on, so no deadline a payer or payee is given may lie beyond it.
     */
    record Open(long expiresAtNanos) implements ChainState {

        public Open {
            Check.that(expiresAtNanos > 0, "an open chain lapses at a ledger time: %d", expiresAtNanos);
        }

        public Instant expiresAt() {
            return Instant.ofEpochSecond(0, expiresAtNanos);
        }
    }

    /** Every leg is posted: the payment settled. */
    record Posted() implements ChainState {}

    /** Every leg is voided, for {@code cause}. */
    record Voided(VoidCause cause) implements ChainState {}

    /** A leg id holds something that is not this payment's: a derivation bug or corrupted data. */
    record Conflicting(String detail) implements ChainState {}

    /** Every id {@link #of} needs looked up for {@code plan}: pending, post and void legs. */
    static List<Id128> idsOf(SettlementPlan plan) {
        return plan.legs().stream()
                .flatMap(leg -> java.util.stream.Stream.of(LegId.Phase.values())
                        .map(phase -> LegId.of(plan.payment().id(), phase, leg.number())))
                .toList();
    }

    /** Classifies {@code plan}'s chain from the transfers found (by id) among {@link #idsOf}. */
    static ChainState of(SettlementPlan plan, Map<Id128, Transfer> found) {
        PaymentId id = plan.payment().id();
        int pending = 0;
        int posts = 0;
        int voids = 0;
        VoidCause cause = null;
        long expiresAtNanos = Long.MAX_VALUE;
        for (SettlementPlan.Leg leg : plan.legs()) {
            Transfer reserved = found.get(LegId.of(id, LegId.Phase.PENDING, leg.number()));
            Transfer post = found.get(LegId.of(id, LegId.Phase.POST, leg.number()));
            Transfer voided = found.get(LegId.of(id, LegId.Phase.VOID, leg.number()));
            if (reserved != null && !belongsTo(reserved, plan, leg)) {
                return new Conflicting("pending leg " + leg.number() + " is not this payment's: " + reserved);
            }
            if (post != null && !resolves(post, reserved, TransferFlags.POST_PENDING_TRANSFER)) {
                return new Conflicting("post leg " + leg.number() + " does not post this payment's leg: " + post);
            }
            if (voided != null && !resolves(voided, reserved, TransferFlags.VOID_PENDING_TRANSFER)) {
                return new Conflicting("void leg " + leg.number() + " does not void this payment's leg: " + voided);
            }
            pending += reserved == null ? 0 : 1;
            if (reserved != null) {
                expiresAtNanos = Math.min(expiresAtNanos, expiresAtNanos(reserved));
            }
            posts += post == null ? 0 : 1;
            if (voided != null) {
                voids++;
                VoidCause legCause = VoidCause.ofCode(voided.userData32());
                if (legCause == null || (cause != null && cause != legCause)) {
                    return new Conflicting("void leg " + leg.number() + " names cause " + voided.userData32());
                }
                cause = legCause;
            }
        }
        return classify(plan, pending, posts, voids, cause, expiresAtNanos);
    }

    private static ChainState classify(
            SettlementPlan plan, int pending, int posts, int voids, VoidCause cause, long expiresAtNanos) {
        int legs = plan.legCount();
        if (pending == 0 && posts == 0 && voids == 0) {
            return new Absent();
        }
        // Chains are linked, so the ledger holds each phase whole or not at all.
        if (pending == legs && posts == legs && voids == 0) {
            return new Posted();
        }
        if (pending == legs && voids == legs && posts == 0) {
            return new Voided(cause);
        }
        if (pending == legs && posts == 0 && voids == 0) {
            return new Open(expiresAtNanos);
        }
        return new Conflicting("a partial chain: " + pending + " pending, " + posts + " posted, " + voids
                + " voided of " + legs + " legs");
    }

    /** The pending leg as the plan builds it; the timeout may differ (it was the configuration's at the time). */
    private static boolean belongsTo(Transfer transfer, SettlementPlan plan, SettlementPlan.Leg leg) {
        return transfer.hasFlag(TransferFlags.PENDING)
                && transfer.debitAccountId().equals(leg.debit())
                && transfer.creditAccountId().equals(leg.credit())
                && transfer.amount() == plan.payment().amountCentavos()
                && transfer.ledger() == ChartOfAccounts.LEDGER_BRL
                && transfer.code() == leg.code()
                && transfer.userData128().equals(plan.payment().id().value());
    }

    /** When a pending leg lapses, as the ledger reckons it (TigerBeetle: timestamp + timeout seconds); 0: never. */
    private static long expiresAtNanos(Transfer pending) {
        if (pending.timeoutSeconds() == 0) {
            return Long.MAX_VALUE;
        }
        return Math.addExact(pending.timestamp(), pending.timeoutSeconds() * 1_000_000_000L);
    }

    private static boolean resolves(Transfer resolution, Transfer reserved, int flag) {
        return reserved != null
                && resolution.hasFlag(flag)
                && resolution.pendingId().equals(reserved.id());
    }
}
