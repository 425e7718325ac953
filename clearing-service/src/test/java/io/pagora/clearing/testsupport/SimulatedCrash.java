package io.pagora.clearing.testsupport;

/**
 * Stands for the process dying at a chosen point (kill -9, power loss). An {@link Error}, not an
 * exception: no retry or error handler treats it as a failed batch. Spring Kafka stops the listener
 * container at once, without committing offsets, just as a dead process commits nothing; the test
 * then closes the application context and starts a new one ("the restart").
 */
public final class SimulatedCrash extends Error {

    public SimulatedCrash(String where) {
        super("simulated crash " + where);
    }
}
