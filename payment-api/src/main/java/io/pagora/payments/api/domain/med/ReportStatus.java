package io.pagora.payments.api.domain.med;

/**
 * Where an infraction report stands: {@code FILING} while its holds are being taken (a retry finishes it), then
 * {@code OPEN} for the payee's bank to analyse, and {@code ACCEPTED} or {@code REJECTED}; {@code ESCALATED} when the
 * deadline passed without an analysis (the operator decides).
 */
public enum ReportStatus {
    FILING,
    OPEN,
    ACCEPTED,
    REJECTED,
    ESCALATED;

    public boolean decided() {
        return this == ACCEPTED || this == REJECTED;
    }
}
