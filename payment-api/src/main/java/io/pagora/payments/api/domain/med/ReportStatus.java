package io.pagora.payments.api.domain.med;

/**
 * Where an infraction report stands: {@code FILING} until its trace is planned, {@code HOLDING} while the plan's holds
 * are taken (a retry, or the finisher, completes either), then {@code OPEN} for the payee's bank to analyse, and
 * {@code ACCEPTED} or {@code REJECTED}; {@code ESCALATED} when the deadline passed without an analysis (the operator
 * decides). An accepted report is refunded when its payer's bank asks: {@code REFUNDING} while its holds are paid out as
 * returns and the rest released (a retry, or the finisher, completes it), then {@code REFUNDED}.
 */
public enum ReportStatus {
    FILING,
    HOLDING,
    OPEN,
    ACCEPTED,
    REJECTED,
    ESCALATED,
    REFUNDING,
    REFUNDED;

    public boolean decided() {
        return accepted() || this == REJECTED;
    }

    /** Accepted, whether or not its refund was asked for since. */
    public boolean accepted() {
        return this == ACCEPTED || this == REFUNDING || this == REFUNDED;
    }

    /** Filed: its holds are taken, and its banks may see it. */
    public boolean filed() {
        return this != FILING && this != HOLDING;
    }
}
