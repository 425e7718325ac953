package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.Payment;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the payment pipeline stands: clearing's inputs, the outcomes it published, what the projection committed.
 * The balance check's watermark (does the read model hold every payment a ledger read could hold?) and its window
 * (which settled payments were published since a point). Clearing posts a payment's legs while handling a record of
 * its inputs, publishes the outcome (or hands the record on to its next stage: a reservation nobody answered, or a
 * record that failed alone, is parked on the expiry topic, whose listener publishes what the ledger holds), waits for
 * Kafka's acknowledgement, and only then commits that record's offset; the projection commits an outcome's offset
 * after the database transaction that wrote it. So:
 * <ol>
 *   <li>every payment the ledger holds posted at a moment came from a record of clearing's first stage below
 *       {@link #clearingInputsEnd} taken after that moment;
 *   <li>once clearing committed past those ({@link #clearingPast}), each one's outcome was published, or the record
 *       handed on below the next stage's end taken then, and so on through the stages;
 *   <li>once clearing is past its last stage, each one's outcome is below {@link #outcomesEnd()} taken then, and
 *       once the projection committed past that ({@link #projectedPast}), the read model holds each one.
 * </ol>
 */
public interface PaymentPipeline {

    /** Each partition's next offset ("topic:partition" → offset). Opaque to the reconciliation. */
    record Positions(Map<String, Long> nextOffsets) {

        public Positions {
            nextOffsets = Map.copyOf(nextOffsets);
            nextOffsets.values().forEach(offset -> Check.that(offset >= 0, "an offset is not negative: %d", offset));
        }
    }

    /** Where the outcomes end now: each outcome below was published, so its legs posted, before this call. */
    Positions outcomesEnd();

    /** Clearing's stages: its input topics, in the order a record is handed on (requests, then expiry). */
    int clearingStages();

    /** Where clearing's input of this stage ends now. */
    Positions clearingInputsEnd(int stage);

    /** Whether clearing has committed past every record of this stage below {@code inputs}. */
    boolean clearingPast(int stage, Positions inputs);

    /** Whether the projection has committed, after its database transaction, every outcome below {@code outcomes}. */
    boolean projectedPast(Positions outcomes);

    /**
     * The payments published SETTLED at or after {@code from} and before {@code to}, each once, or empty when there
     * are more than {@code recordsMax} outcome records between the two (the caller gives that window up).
     */
    Optional<List<Payment>> settledBetween(Positions from, Positions to, int recordsMax);
}
