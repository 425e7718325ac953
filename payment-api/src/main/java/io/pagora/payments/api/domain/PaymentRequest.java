package io.pagora.payments.api.domain;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Objects;

/**
 * A payment order as the client sent it, well-formed (every field of the right shape) but not yet
 * checked against the ledger or the limits: see {@link PaymentRules}.
 *
 * @param currency always {@value #CURRENCY_BRL} (an absent currency means BRL)
 * @param description free text, or null
 * @param endToEndId the client's end-to-end id, or null
 */
public record PaymentRequest(
        Id128 payer,
        Id128 payee,
        long amountCentavos,
        String currency,
        String description,
        String endToEndId) {

    public static final String CURRENCY_BRL = "BRL";
    public static final int DESCRIPTION_CHARS_MAX = 140;
    public static final int END_TO_END_ID_CHARS_MAX = 35;

    public PaymentRequest {
        Objects.requireNonNull(payer, "payer");
        Objects.requireNonNull(payee, "payee");
        Check.that(CURRENCY_BRL.equals(currency), "currency is BRL: %s", currency);
        Check.that(description == null || description.codePointCount(0, description.length()) <= DESCRIPTION_CHARS_MAX,
                "description too long");
        Check.that(endToEndId == null || endToEndId.length() <= END_TO_END_ID_CHARS_MAX, "endToEndId too long");
    }

    /**
     * SHA-256 of the canonical request: every field that defines the payment, in a fixed order, each
     * length-prefixed (so no two different requests encode alike) and with absent fields marked apart
     * from empty ones. A retried request with the same key must match it exactly.
     */
    public byte[] fingerprint() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF("pagora.payment-request.v1");
            out.writeLong(payer.hi());
            out.writeLong(payer.lo());
            out.writeLong(payee.hi());
            out.writeLong(payee.lo());
            out.writeLong(amountCentavos);
            writeOptional(out, currency);
            writeOptional(out, description);
            writeOptional(out, endToEndId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sha256(bytes.toByteArray());
    }

    /** The event that hands this payment to clearing. */
    public PaymentRequested toEvent(PaymentId paymentId, Instant acceptedAt) {
        return new PaymentRequested(paymentId.toString(), payer.toString(), payee.toString(), amountCentavos, currency,
                description, endToEndId, acceptedAt);
    }

    private static void writeOptional(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value); // length-prefixed modified UTF-8; values are ≤ 140 code points
        }
    }

    public static byte[] sha256(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
