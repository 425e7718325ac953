package io.pagora.clearing.application.expiry;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Parks whole requests for the expiry path, deadline one pending timeout plus the margin from now: the in-process
 * bank's unanswered, and payments clearing could not process (a bug, set aside by the adapter), as if their bank never
 * answered. Once their chains could have timed out, the expiry path voids what is left and publishes what the ledger
 * shows: their reservation, if any, expires; nothing moves; the payment still gets its one final state.
 */
public final class ParkingForExpiry {

    private final Settlement settlement;
    private final UnansweredPayments unanswered;
    private final Clock clock;
    private final Duration expiryMargin;

    /**
     * @param expiryMargin added to the pending timeout to get an unanswered payment's deadline, so the
     *     expiry worker acts after the ledger's own expiry despite clock differences
     */
    public ParkingForExpiry(Settlement settlement, UnansweredPayments unanswered, Clock clock, Duration expiryMargin) {
        Check.that(!expiryMargin.isNegative(), "expiry margin must not be negative: %s", expiryMargin);
        this.settlement = settlement;
        this.unanswered = unanswered;
        this.clock = clock;
        this.expiryMargin = expiryMargin;
    }

    public Report park(List<ClearingRequest> requests) {
        if (requests.isEmpty()) {
            return Report.EMPTY;
        }
        Instant deadline =
                clock.instant().plusSeconds(settlement.pendingTimeoutSeconds()).plus(expiryMargin);
        unanswered.park(requests.stream().map(ClearingRequest::event).toList(), deadline);
        return new Report(requests.size(), 0, 0, 0, requests.size(), List.of());
    }
}
