package io.pagora.reporting.adapter.kafka;

/** A record could not be written to its dead-letter topic: the poll is retried (Kafka is likely down). */
public final class DeadLetterUnavailableException extends RuntimeException {

    public DeadLetterUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
