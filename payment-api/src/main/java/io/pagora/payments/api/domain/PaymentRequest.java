package io.pagora.payments.api.domain;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
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
 * @param endToEndId the PIX end-to-end id the payer's bank gave ({@link PixId.Kind#END_TO_END}, well-formed), or
 *     null: the switch then makes one from the payment id ({@link #endToEndIdOf})
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

    public PaymentRequest {
        Objects.requireNonNull(payer, "payer");
        Objects.requireNonNull(payee, "payee");
        Check.that(CURRENCY_BRL.equals(currency), "currency is BRL: %s", currency);
        Check.that(description == null || description.codePointCount(0, description.length()) <= DESCRIPTION_CHARS_MAX,
                "description too long");
        Check.that(endToEndId == null || PixId.problem(endToEndId, PixId.Kind.END_TO_END).isEmpty(),
                "endToEndId is a PIX end-to-end id: %s", endToEndId);
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
                description, endToEndIdOf(paymentId, acceptedAt).value(), acceptedAt);
    }

    /**
     * The payment's end-to-end id: the one its bank gave, or else the one the switch makes from the payment id and
     * its acceptance time, so every request that names the payment (a replay included) names the same id.
     */
    public PixId endToEndIdOf(PaymentId paymentId, Instant acceptedAt) {
        if (endToEndId != null) {
            return new PixId(endToEndId);
        }
        BankId payerBank = ChartOfAccounts.bankOf(payer).orElseThrow(
                () -> new IllegalStateException("a payer account names its bank: " + payer));
        return PixId.generated(PixId.Kind.END_TO_END, payerBank, acceptedAt, paymentId);
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
