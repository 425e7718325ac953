package io.pagora.payments.api.application.streams;

import io.pagora.settlement.domain.BankId;
import java.util.OptionalLong;

/** Port: how far each participant has acknowledged its messages, durably (a restart redelivers only the rest). */
public interface StreamPositions {

    /** The acknowledged position of the bank's messages on {@code partition}, if one was ever saved there. */
    OptionalLong acknowledged(BankId bank, int partition);

    /** Saves a new acknowledged position; positions only move forward. */
    void acknowledge(BankId bank, int partition, long position);
}
