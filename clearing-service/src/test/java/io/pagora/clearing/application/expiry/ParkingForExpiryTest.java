package io.pagora.clearing.application.expiry;

import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.clearing.application.Report;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parking whole requests for the expiry path: one deadline, a pending timeout plus the margin from now. */
class ParkingForExpiryTest {

    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final ParkingForExpiry parking = new ParkingForExpiry(
            fakes.settlement, fakes.unanswered, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(3));

    @Test
    void requestsAreParkedWithTheirDeadlineAndCountAsUnanswered() {
        PaymentRequested first = fakes.payment();
        PaymentRequested second = fakes.payment();

        Report report = parking.park(List.of(request(first), request(second)));

        assertThat(fakes.parkedRequests).containsExactly(first, second);
        assertThat(fakes.parkedDeadlines).containsExactly(NOW.plusSeconds(UseCaseWorld.PENDING_TIMEOUT_SECONDS + 3));
        assertThat(report).isEqualTo(new Report(2, 0, 0, 0, 2, List.of()));
        assertThat(fakes.published).isEmpty();
    }

    @Test
    void nothingToParkWritesNothing() {
        assertThat(parking.park(List.of())).isEqualTo(Report.EMPTY);
        assertThat(fakes.parkedDeadlines).isEmpty();
    }

    @Test
    void aNegativeMarginIsRefused() {
        assertThatThrownBy(() -> new ParkingForExpiry(
                        fakes.settlement, fakes.unanswered, Clock.systemUTC(), Duration.ofSeconds(-1)))
                .isInstanceOf(Check.InvariantViolation.class);
    }
}
