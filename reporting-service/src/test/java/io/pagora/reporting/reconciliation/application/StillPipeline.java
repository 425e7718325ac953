package io.pagora.reporting.reconciliation.application;

import io.pagora.settlement.domain.Payment;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A payment pipeline with nothing in flight: its positions never move, and the projection holds every ledger read
 * once {@link #caughtUp} (true unless a test holds it back). No payment is settled between two positions, unless a
 * test says the window is too large to read.
 */
final class StillPipeline implements PaymentPipeline {

    private static final Positions HERE = new Positions(Map.of("topic:0", 0L));

    boolean caughtUp = true;
    boolean windowTooLarge;

    @Override
    public Positions outcomesEnd() {
        return HERE;
    }

    @Override
    public int clearingStages() {
        return 2;
    }

    @Override
    public Positions clearingInputsEnd(int stage) {
        return HERE;
    }

    @Override
    public boolean clearingPast(int stage, Positions inputs) {
        return caughtUp;
    }

    @Override
    public boolean projectedPast(Positions outcomes) {
        return caughtUp;
    }

    @Override
    public Optional<List<Payment>> settledBetween(Positions from, Positions to, int recordsMax) {
        return windowTooLarge ? Optional.empty() : Optional.of(List.of());
    }
}
