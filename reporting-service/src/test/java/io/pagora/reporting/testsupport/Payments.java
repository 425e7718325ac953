package io.pagora.reporting.testsupport;

import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Builds a payment's events with real-shaped ids: time-ordered payment ids, PIX chart customer accounts. */
public final class Payments {

    private static final TimeOrderedIds IDS = new TimeOrderedIds();
    private static final AtomicLong ACCOUNT_NUMBERS = new AtomicLong(System.nanoTime() & 0xFFFF_FFFFL);
    private static final String ALPHANUMERICS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private Payments() {}

    /** A new customer account at the bank with this ISPB, never used before in this JVM. */
    public static String customer(int ispb) {
        return ChartOfAccounts.customer(new BankId(ispb), ACCOUNT_NUMBERS.incrementAndGet())
                .toString();
    }

    /** One payment; its outcomes all carry the same parties, amount and acceptedAt. */
    public record Payment(String paymentId, String payer, String payee, long amountCentavos, Instant acceptedAt) {

        public PaymentRequested requested() {
            return requested("E2E" + paymentId.substring(0, Math.min(20, paymentId.length())));
        }

        public PaymentRequested requested(String endToEndId) {
            return new PaymentRequested(
                    paymentId, payer, payee, amountCentavos, "BRL", "test " + paymentId, endToEndId, acceptedAt);
        }

        public PaymentSettled settled(Instant at) {
            return new PaymentSettled(paymentId, payer, payee, amountCentavos, acceptedAt, at);
        }

        public PaymentSettled settled() {
            return settled(acceptedAt.plusMillis(40));
        }

        public PaymentRejected rejected(RejectionReason reason) {
            return new PaymentRejected(
                    paymentId,
                    payer,
                    payee,
                    amountCentavos,
                    reason,
                    "ledger code 42",
                    acceptedAt,
                    acceptedAt.plusMillis(30));
        }

        public PaymentExpired expired() {
            return new PaymentExpired(paymentId, payer, payee, amountCentavos, acceptedAt, acceptedAt.plusSeconds(30));
        }
    }

    public static Payment between(String payer, String payee, long amountCentavos) {
        // Nanosecond precision on purpose: the read model must truncate consistently to microseconds.
        return new Payment(
                IDS.next().toString(),
                payer,
                payee,
                amountCentavos,
                Instant.now().plusNanos(123));
    }

    public static Payment any() {
        return between(customer(1), customer(2), 1_000);
    }

    /**
     * A new EndToEndId in the BCB's format, as the payer's bank makes one: E, its ISPB, the UTC minute, 11 letters or
     * digits (random: unique in this JVM in practice, 62^11 of them).
     */
    public static String endToEndId(int payerIspb, Instant at) {
        StringBuilder suffix = new StringBuilder(PixId.SUFFIX_CHARS);
        for (int i = 0; i < PixId.SUFFIX_CHARS; i++) {
            suffix.append(ALPHANUMERICS.charAt(ThreadLocalRandom.current().nextInt(ALPHANUMERICS.length())));
        }
        return PixId.of(PixId.Kind.END_TO_END, new BankId(payerIspb), at, suffix.toString())
                .value();
    }

    public static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
