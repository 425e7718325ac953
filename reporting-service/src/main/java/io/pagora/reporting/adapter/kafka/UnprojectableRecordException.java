package io.pagora.reporting.adapter.kafka;

/** A record the projection cannot use (not a v1 payment event, or one that breaks the event rules). */
public final class UnprojectableRecordException extends RuntimeException {

    public UnprojectableRecordException(String reason) {
        super(reason, null, false, false);
    }
}
