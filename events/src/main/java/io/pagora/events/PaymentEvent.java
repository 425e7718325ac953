package io.pagora.events;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;

/**
 * Every event about a payment, version 1. Events are past-tense facts, serialized as JSON with a
 * {@code type} discriminator. Ids are 32 lowercase hex digits (128 bits). Every event carries the
 * payment's parties and amount, so a consumer can project an outcome that arrives before its request.
 *
 * <p>Compatibility rule: v1 consumers ignore unknown fields; a breaking change is a new topic (v2).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = PaymentRequested.class, name = "PaymentRequested"),
    @JsonSubTypes.Type(value = PaymentSettled.class, name = "PaymentSettled"),
    @JsonSubTypes.Type(value = PaymentRejected.class, name = "PaymentRejected"),
    @JsonSubTypes.Type(value = PaymentExpired.class, name = "PaymentExpired")
})
public sealed interface PaymentEvent permits PaymentRequested, PaymentOutcome {

    String paymentId();

    String payerAccountId();

    String payeeAccountId();

    long amountCentavos();

    /** When payment-api accepted the payment (Kafka acknowledged it); the start of every latency. */
    Instant acceptedAt();

    /** When this fact happened. */
    Instant occurredAt();

    /** What the payment returns, if it is a return (devolução) of a settled payment; null otherwise. */
    ReturnOf returnOf();

    /** The Kafka key: the payer's account, so one account's payments stay ordered on one partition. */
    default String key() {
        return payerAccountId();
    }
}
