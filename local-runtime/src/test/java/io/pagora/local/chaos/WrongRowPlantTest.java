package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.local.checks.InvariantChecks;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The row chaos kafka-outage plants: a payment the reconciliation must judge as one the ledger never saw. */
class WrongRowPlantTest {

    @Test
    void thePlantedPaymentIdCarriesItsOldAcceptanceTimeAsThePlatformsIdsDo() {
        Instant acceptedAt = Instant.parse("2026-11-25T12:59:00.123Z");
        InvariantChecks.InFlight young =
                new InvariantChecks.InFlight(acceptedAt.plusSeconds(10), Duration.ofSeconds(11), Set.of(), Set.of());
        String id =
                WrongRowPlant.idAcceptedAt(acceptedAt, 0x1234_5678_9abc_def0L).toString();
        assertThat(WrongRowPlant.idAcceptedAt(acceptedAt, 42).hi() >>> 16).isEqualTo(acceptedAt.toEpochMilli());
        assertThat(young.young(id)).isTrue();
        // A malformed id is reported as 'invalid', never as the settled_not_posted the kafka-outage scenario waits for.
        assertThat(new PaymentId(WrongRowPlant.idAcceptedAt(acceptedAt, 42)).epochMillis())
                .isEqualTo(acceptedAt.toEpochMilli());
    }
}
