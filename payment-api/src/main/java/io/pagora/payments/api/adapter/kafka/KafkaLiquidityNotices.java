package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.participant.LiquidityAlert;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.payments.api.application.liquidity.LiquidityNotices;
import io.pagora.payments.api.application.liquidity.WatchedReserve;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Each watch's last crossing as a {@link LiquidityAlert} on its bank's stream. */
public final class KafkaLiquidityNotices implements LiquidityNotices {

    private final KafkaBankStreams streams;

    public KafkaLiquidityNotices(KafkaBankStreams streams) {
        this.streams = streams;
    }

    @Override
    public void tell(List<WatchedReserve> crossed) {
        Map<String, List<ParticipantMessage>> byBank = new LinkedHashMap<>();
        for (WatchedReserve watched : crossed) {
            WatchedReserve.Crossed last = watched.last().orElseThrow();
            String bank = watched.bank().toString();
            byBank.computeIfAbsent(bank, ignored -> new ArrayList<>())
                    .add(new LiquidityAlert(
                            LiquidityAlert.idOf(bank, watched.sequence()),
                            null,
                            last.crossing().name(),
                            last.availableCentavos(),
                            last.marks().lowCentavos(),
                            last.marks().highCentavos(),
                            watched.watch().since()));
        }
        streams.send(byBank, "liquidity alerts");
    }
}
