package io.pagora.payments.api.domain;

import io.pagora.events.PaymentRequested;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.directory.PixKey;
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
 * @param endToEndId the PIX id the payer's bank gave, well-formed: an end-to-end id ({@link PixId.Kind#END_TO_END}),
 *     or a return's return id ({@link PixId.Kind#RETURN}); or null: the switch then makes one from the payment id
 *     ({@link #endToEndIdOf})
 * @param returnOf for a return (devolução): what it returns; its payer is the original's payee and its payee the
 *     original's payer. Null for a payment.
 * @param payeeKey for a payment by key: the key its payee was named by, {@code payee} the account the key's look-up
 *     found. Null for a payment by account and for a return.
 */
public record PaymentRequest(
        Id128 payer,
        Id128 payee,
        long amountCentavos,
        String currency,
        String description,
        String endToEndId,
        ReturnOf returnOf,
        PixKey payeeKey) {

    public static final String CURRENCY_BRL = "BRL";
    public static final int DESCRIPTION_CHARS_MAX = 140;

    /**
     * What a return returns, as the ledger showed it when the return was asked for: the original payment, its amount
     * (the most all its returns may return, which the ledger enforces), and why.
     */
    public record ReturnOf(PaymentId original, long originalAmountCentavos, ReturnReason reason) {
        public ReturnOf {
            Objects.requireNonNull(original, "original");
            Objects.requireNonNull(reason, "reason");
            Check.that(originalAmountCentavos > 0, "an original amount is positive: %d", originalAmountCentavos);
        }
    }

    /** A payment (not a return). */
    public PaymentRequest(
            Id128 payer, Id128 payee, long amountCentavos, String currency, String description, String endToEndId) {
        this(payer, payee, amountCentavos, currency, description, endToEndId, null, null);
    }

    /** A payment by account, or a return. */
    public PaymentRequest(
            Id128 payer,
            Id128 payee,
            long amountCentavos,
            String currency,
            String description,
            String endToEndId,
            ReturnOf returnOf) {
        this(payer, payee, amountCentavos, currency, description, endToEndId, returnOf, null);
    }

    public PaymentRequest {
        Objects.requireNonNull(payer, "payer");
        Objects.requireNonNull(payee, "payee");
        Check.that(CURRENCY_BRL.equals(currency), "currency is BRL: %s", currency);
        Check.that(
                description == null || description.codePointCount(0, description.length()) <= DESCRIPTION_CHARS_MAX,
                "description too long");
        Check.that(
                endToEndId == null
                        || PixId.problem(endToEndId, idKind(returnOf)).isEmpty(),
                "endToEndId is a PIX id of kind %s: %s",
                idKind(returnOf),
                endToEndId);
        Check.that(
                returnOf == null || amountCentavos <= returnOf.originalAmountCentavos(),
                "a return returns at most its original's amount");
        Check.that(
                payeeKey == null || (returnOf == null && endToEndId != null),
                "a payment by key names its look-up's id");
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
            // Only a return writes more, so a payment's fingerprint is what it was before returns existed: a key
            // claimed then is still a replay of the same request.
            if (returnOf != null) {
                out.writeUTF("return-of");
                out.writeLong(returnOf.original().value().hi());
                out.writeLong(returnOf.original().value().lo());
                out.writeLong(returnOf.originalAmountCentavos());
                out.writeUTF(returnOf.reason().name());
            }
            // Likewise only a payment by key: the same account named by key is another request than by account.
            if (payeeKey != null) {
                out.writeUTF("payee-key");
                out.writeUTF(payeeKey.type().name());
                out.writeUTF(payeeKey.value());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sha256(bytes.toByteArray());
    }

    /** The event that hands this payment to clearing. */
    public PaymentRequested toEvent(PaymentId paymentId, Instant acceptedAt) {
        return toEvent(
                paymentId, acceptedAt, endToEndIdOf(paymentId, acceptedAt).value());
    }

    /** The event that hands this payment to clearing, its end-to-end id already made ({@link #endToEndIdOf}). */
    public PaymentRequested toEvent(PaymentId paymentId, Instant acceptedAt, String endToEndIdMade) {
        Check.that(
                endToEndId == null || endToEndId.equals(endToEndIdMade),
                "a given end-to-end id is the payment's: %s",
                endToEndIdMade);
        return new PaymentRequested(
                paymentId.toString(),
                payer.toString(),
                payee.toString(),
                amountCentavos,
                currency,
                description,
                endToEndIdMade,
                acceptedAt,
                returnOf == null
                        ? null
                        : new io.pagora.events.ReturnOf(
                                returnOf.original().toString(), returnOf.originalAmountCentavos(), returnOf.reason()));
    }

    public boolean isReturn() {
        return returnOf != null;
    }

    /** The kind of PIX id a request carries: a payment's end-to-end id, or a return's return id. */
    public static PixId.Kind idKind(ReturnOf returnOf) {
        return returnOf == null ? PixId.Kind.END_TO_END : PixId.Kind.RETURN;
    }

    /**
     * The payment's end-to-end id: the one its bank gave, or else the one the switch makes from the payment id and
     * its acceptance time, so every request that names the payment (a replay included) names the same id.
     */
    public PixId endToEndIdOf(PaymentId paymentId, Instant acceptedAt) {
        if (endToEndId != null) {
            return new PixId(endToEndId);
        }
        BankId payerBank = ChartOfAccounts.bankOf(payer)
                .orElseThrow(() -> new IllegalStateException("a payer account names its bank: " + payer));
        return PixId.generated(idKind(returnOf), payerBank, acceptedAt, paymentId);
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
