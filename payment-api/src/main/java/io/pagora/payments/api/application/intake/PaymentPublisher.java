package io.pagora.payments.api.application.intake;

import io.pagora.events.PaymentRequested;
import java.util.List;

/** Hands accepted payments to clearing durably (Kafka), waiting for the broker's acknowledgement. */
public interface PaymentPublisher {

    /** The broker's answer for one event. */
    sealed interface Publication {
        /** The broker holds the event durably (acks=all). */
        record Acked() implements Publication {}

        /** Never handed to the broker (it could not be reached): the event is certainly not stored. */
        record NotSent(String reason) implements Publication {}

        /**
         * Handed to the producer, but not acknowledged: the broker may hold the event or not, and the
         * producer may still deliver it until its delivery timeout. Its outcome is unknown.
         */
        record Unconfirmed(String reason) implements Publication {}
    }

    /** Sends every event, then waits (bounded) for all acknowledgements. One publication per event, in order. */
    List<Publication> publishAll(List<PaymentRequested> events);
}
