package io.pagora.settlement.invariants;

import io.pagora.ledger.port.invariants.Finding;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Every accepted payment is in exactly one final state: the claims of one source (the read model, or the
 * outcomes clearing published) hold a final state for each accepted payment, never two different ones,
 * and describe the payment as it was requested.
 */
public final class FinalStates {

    private FinalStates() {}

    /**
     * @param source what the claims are, for messages ("the read model")
     * @param accepted the payments accepted; when a {@link Payment} is known (not null) its claims must describe it
     * @param oneClaimEach a payment may be claimed once only (a read model); without it, the same outcome may
     *     be claimed again (an outcome republished after a redelivery)
     */
    public static Finding check(
            String source, Map<PaymentId, Payment> accepted, Collection<Claim> claims, boolean oneClaimEach) {
        Map<PaymentId, List<Claim>> byPayment = new HashMap<>();
        for (Claim claim : claims) {
            byPayment
                    .computeIfAbsent(claim.payment().id(), id -> new ArrayList<>(1))
                    .add(claim);
        }
        return check(source, accepted, id -> byPayment.getOrDefault(id, List.of()), oneClaimEach);
    }

    /** As above, with each accepted payment's claims looked up by {@code claimsOf} (a bench run's millions stay where they are). */
    public static Finding check(
            String source,
            Map<PaymentId, Payment> accepted,
            Function<PaymentId, List<Claim>> claimsOf,
            boolean oneClaimEach) {
        Finding.Violations violations = new Finding.Violations();
        int missing = 0;
        int notFinal = 0;
        int conflicting = 0;
        for (Map.Entry<PaymentId, Payment> entry : accepted.entrySet()) {
            List<Claim> mine = claimsOf.apply(entry.getKey());
            if (mine.isEmpty()) {
                missing++;
                violations.add("accepted payment " + entry.getKey() + " is not in " + source);
                continue;
            }
            Set<String> statuses = new TreeSet<>();
            mine.forEach(claim -> statuses.add(claim.status()));
            if (mine.stream().anyMatch(claim -> !claim.isFinal())) {
                notFinal++;
                violations.add("accepted payment " + entry.getKey() + " has no final state (status " + statuses
                        + ") in " + source);
            } else if (statuses.size() > 1) {
                conflicting++;
                violations.add("payment " + entry.getKey() + " has " + statuses.size() + " final states in " + source
                        + ": " + statuses);
            }
            if (oneClaimEach && mine.size() > 1) {
                violations.add("payment " + entry.getKey() + " is " + mine.size() + " times in " + source);
            }
            describes(entry.getValue(), mine, source, violations);
        }
        String summary = String.format(
                "%d accepted payments: %d missing, %d not final, %d with two final states in %s",
                accepted.size(), missing, notFinal, conflicting, source);
        return violations.finding("every accepted payment in exactly one final state", summary);
    }

    private static void describes(Payment requested, List<Claim> claims, String source, Finding.Violations violations) {
        if (requested == null) {
            return;
        }
        for (Claim claim : claims) {
            if (!claim.payment().equals(requested)) {
                violations.add(source + " shows payment " + requested.id() + " as " + claim.payment()
                        + ", but it was requested as " + requested);
            }
        }
    }
}
