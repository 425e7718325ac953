package io.pagora.reporting.application;

import io.pagora.reporting.domain.IntegrityAlarm;
import io.pagora.reporting.domain.PaymentFacts;
import io.pagora.reporting.domain.PaymentStatus;
import java.time.Instant;
import java.util.List;

/** Writes one poll's merged facts to the read model. */
public interface ReadModelWriter {

    /**
     * Applies the facts in ONE database transaction with a bounded number of set-based statements,
     * whatever the number of facts. Idempotent: applying the same facts again changes nothing. A final
     * state already stored is never changed; a different one in {@code facts} comes back as an alarm.
     *
     * @param facts at most one per payment
     * @throws org.springframework.dao.DataAccessException if the transaction did not commit
     */
    Applied apply(List<PaymentFacts> facts);

    /**
     * What the transaction did.
     *
     * @param inserted payments new to the read model
     * @param finalized payments that got their final state (new ones included)
     * @param requestsFilled existing payments that got their request details
     * @param redelivered payments whose facts were all already stored (and agree with them)
     * @param alarms facts that contradict the stored payment
     * @param requestsVisible payments whose request became visible (new ones with their request, plus
     *     {@code requestsFilled}): each counted once however often its event is delivered
     * @param finalStates the payments that got their final state, with their times, for latency metrics
     * @param writes the payments whose row became complete (its request and its final state), by how often it was
     *     written
     */
    record Applied(
            int inserted,
            int finalized,
            int requestsFilled,
            int redelivered,
            List<IntegrityAlarm> alarms,
            int requestsVisible,
            List<FinalStateReached> finalStates,
            Writes writes) {}

    /**
     * Payments whose row became complete in a transaction: inserted already complete (its request and its outcome
     * met in one poll), or completed by a second write of a row inserted by an earlier poll (finalized, or its
     * request filled after its outcome). Each payment is counted once, in the transaction that completes it.
     */
    record Writes(int once, int twice) {
        public static final Writes NONE = new Writes(0, 0);

        public Writes {
            if (once < 0 || twice < 0) {
                throw new IllegalArgumentException("payments are counted from zero: " + once + ", " + twice);
            }
        }
    }

    /**
     * A payment that became final in this transaction.
     *
     * @param acceptedAt when payment-api accepted it
     * @param finalAt when its outcome happened (the outcome event's occurredAt)
     */
    record FinalStateReached(PaymentStatus status, Instant acceptedAt, Instant finalAt) {}
}
