package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import io.pagora.events.participant.KeyClaimNotice;
import io.pagora.events.participant.MessageRecords;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.payments.api.application.directory.ClaimNotices;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.settlement.domain.access.Caller;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Claim notices on the banks' streams ({@code Topics.PARTICIPANT_MESSAGES}, a record per bank keyed by its ISPB, as
 * clearing writes instructions): an open claim to its donor, a resolved one to both banks.
 */
public final class KafkaClaimNotices implements ClaimNotices {

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;
    private final Clock clock;

    public KafkaClaimNotices(KafkaTemplate<String, byte[]> kafka, Duration timeout, Clock clock) {
        this.kafka = kafka;
        this.timeout = timeout;
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
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (MessageRecords.Sliced sliced : MessageRecords.sliced(byBank)) {
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(Topics.PARTICIPANT_MESSAGES, sliced.bank(), sliced.value());
            record.headers()
                    .add(
                            MessageRecords.COUNT_HEADER,
                            Integer.toString(sliced.count()).getBytes(StandardCharsets.US_ASCII));
            sends.add(kafka.send(record));
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while telling claims", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the broker did not take the claim notices: " + e, e);
        }
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
