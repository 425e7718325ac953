package io.pagora.payments.api.application;

import io.pagora.events.PaymentRequested;
import java.util.List;

/** Hands accepted payments to clearing durably (Kafka), waiting for the broker's acknowledgement. */
public interface PaymentPublisher {

    /** The broker's answer for one event. */
    sealed interface Publication {
        /** The broker holds the event durably (acks=all). */
        record Acked() implements Publication {}

        /** Not acknowledged within the deadline, or refused: the event may or may not be stored. */
        record Failed(String reason) implements Publication {}
    }

    /** Sends every event, then waits (bounded) for all acknowledgements. One publication per event, in order. */
    List<Publication> publishAll(List<PaymentRequested> events);
}
