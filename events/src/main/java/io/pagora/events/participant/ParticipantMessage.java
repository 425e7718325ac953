package io.pagora.events.participant;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A message the switch sends one participant over its stream (docs/participants.md), version 1: an
 * instruction to answer, a payment's final outcome, a claim on a key or a liquidity alert (no payment: its {@link #paymentId()} is
 * null). Every message has an {@link #id()} that names it
 * for good — the same message delivered again (streams are at-least-once) has the same id, so a bank
 * drops duplicates by id. Serialized as JSON with a {@code type} discriminator; unknown fields are ignored.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = PaymentInstruction.class, name = "PaymentInstruction"),
    @JsonSubTypes.Type(value = PaymentConcluded.class, name = "PaymentConcluded"),
    @JsonSubTypes.Type(value = KeyClaimNotice.class, name = "KeyClaimNotice"),
    @JsonSubTypes.Type(value = LiquidityAlert.class, name = "LiquidityAlert"),
    @JsonSubTypes.Type(value = InfractionReportNotice.class, name = "InfractionReportNotice"),
    @JsonSubTypes.Type(value = CautionaryHold.class, name = "CautionaryHold")
})
public sealed interface ParticipantMessage
        permits PaymentInstruction,
                PaymentConcluded,
                KeyClaimNotice,
                LiquidityAlert,
                InfractionReportNotice,
                CautionaryHold {

    /** The message's own id: a duplicate has the same one. */
    String id();

    String paymentId();
}
