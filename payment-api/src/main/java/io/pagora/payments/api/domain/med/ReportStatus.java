package io.pagora.payments.api.domain.med;

/**
 * Where an infraction report stands: {@code FILING} until its trace is planned, {@code HOLDING} while the plan's holds
 * are taken (a retry, or the finisher, completes either), then {@code OPEN} for the payee's bank to analyse, and
 * {@code ACCEPTED} or {@code REJECTED}; {@code ESCALATED} when the deadline passed without an analysis (the operator
 * decides).
 */
public enum ReportStatus {
    FILING,
    HOLDING,
    OPEN,
    ACCEPTED,
    REJECTED,
    ESCALATED;

    public boolean decided() {
        return this == ACCEPTED || this == REJECTED;
    }

    /** Filed: its holds are taken, and its banks may see it. */
    public boolean filed() {
        return this != FILING && this != HOLDING;
    }
}
