package io.pagora.settlement.application;

import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.Caller;

/**
 * Where the application reports the requests it refused for who sent them (a metric by reason, in the
 * services). Reporting never changes the answer, which is decided before: a refused object reads as a
 * missing one.
 */
public interface AccessRefusals {

    void refused(Caller caller, AccessRefusal reason);

    /** For code paths (tools, tests) that count nothing. */
    AccessRefusals UNCOUNTED = (caller, reason) -> {};
}
