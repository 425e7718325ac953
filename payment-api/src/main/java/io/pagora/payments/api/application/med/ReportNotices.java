package io.pagora.payments.api.application.med;

import io.pagora.payments.api.domain.med.InfractionReport;

/**
 * Tells a report's banks on their streams: its payee's bank when it is filed, both banks when it is decided or
 * escalated, and each bank whose customer's money is held, when it is held and when it is released. Returns once
 * delivered, or throws; every message has an id of its own state, so telling again is harmless.
 */
public interface ReportNotices {

    void tell(InfractionReport report);
}
