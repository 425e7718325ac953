package io.pagora.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.ReadModel;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The line a failed check (d) adds about the payments it found not final: what a reader needs to tell why. */
class OpenJudgedTest {

    private static final Instant ISSUED = Instant.parse("2026-11-28T14:04:38.006Z");
    private static final Id128 ACCOUNT = new Id128(1, 1);

    @Test
    void saysHowManyAreReturnsWhenTheyWereAcceptedAndWhichHaveAnOutcomeOnTheTopic() {
        TimeOrderedIds ids = new TimeOrderedIds(Clock.fixed(ISSUED, ZoneOffset.UTC));
        PaymentId original = ids.nextPaymentId();
        PaymentId settled = ids.nextPaymentId();
        PaymentId returnOpen = ids.nextPaymentId();
        PaymentId paymentOpen = ids.nextPaymentId();
        Map<String, ReadModel.Row> byId = new LinkedHashMap<>();
        byId.put(original.toString(), row(original, ReadModel.SETTLED, null));
        byId.put(settled.toString(), row(settled, ReadModel.SETTLED, null));
        byId.put(returnOpen.toString(), row(returnOpen, ReadModel.ACCEPTED, original.value()));
        byId.put(paymentOpen.toString(), row(paymentOpen, ReadModel.ACCEPTED, null));
        OutcomeLog outcomes =
                new OutcomeLog(Map.of(returnOpen.toString(), new TreeSet<>(Set.of(ReadModel.SETTLED))), 1, 0);

        String line = InvariantChecks.openJudged(Set.of(original, settled, returnOpen, paymentOpen), byId, outcomes);

        assertThat(line)
                .isEqualTo("of the 2 payments the read model holds not final: 1 returns asked by the "
                        + "participants, accepted from 2026-11-28T14:04:38.006Z to 2026-11-28T14:04:38.006Z (their ids' time); "
                        + "the outcomes topic, read after the read model, holds a final state for 1");
    }

    @Test
    void saysNothingWhenEveryJudgedPaymentIsFinalOrMissing() {
        PaymentId missing = new TimeOrderedIds(Clock.fixed(ISSUED, ZoneOffset.UTC)).nextPaymentId();

        assertThat(InvariantChecks.openJudged(Set.of(missing), Map.of(), new OutcomeLog(Map.of(), 0, 0)))
                .isEmpty();
    }

    private static ReadModel.Row row(PaymentId id, String status, Id128 returnOf) {
        return new ReadModel.Row(
                id.value().toUuid(),
                ACCOUNT,
                ACCOUNT,
                100,
                status,
                null,
                ISSUED,
                ReadModel.isFinal(status) ? ISSUED : null,
                returnOf,
                returnOf == null ? null : "MD06");
    }
}
