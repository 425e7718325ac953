package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.participant.KeyClaimNotice;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.payments.api.application.directory.ClaimNotices;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claim notices on the banks' streams ({@code Topics.PARTICIPANT_MESSAGES}, a record per bank keyed by its ISPB, as
 * clearing writes instructions): an open claim to its donor, a resolved one to both banks.
 */
public final class KafkaClaimNotices implements ClaimNotices {

    private final KafkaBankStreams streams;
    private final Clock clock;

    public KafkaClaimNotices(KafkaBankStreams streams, Clock clock) {
        this.streams = streams;
        this.clock = clock;
    }

    @Override
    public void tell(List<Claim> claims) {
        Map<String, List<ParticipantMessage>> byBank = new LinkedHashMap<>();
        for (Claim claim : claims) {
            add(byBank, claim, claim.donor(), "DONOR");
            if (claim.status() != Claim.Status.OPEN) {
                add(byBank, claim, claim.claimer(), "CLAIMER");
            }
        }
        streams.send(byBank, "claim notices");
    }

    private void add(Map<String, List<ParticipantMessage>> byBank, Claim claim, String participant, String role) {
        String bank = participant.substring(Caller.BANK_PREFIX.length());
        byBank.computeIfAbsent(bank, ignored -> new ArrayList<>())
                .add(new KeyClaimNotice(
                        KeyClaimNotice.idOf(
                                claim.id().toString(), claim.status().name(), role),
                        null,
                        claim.id().toString(),
                        claim.key().value(),
                        claim.type().name(),
                        role,
                        claim.status().name(),
                        claim.resolution() == null ? null : claim.resolution().name(),
                        claim.resolveBy(),
                        claim.resolvedAt() == null ? clock.instant() : claim.resolvedAt()));
    }
}
