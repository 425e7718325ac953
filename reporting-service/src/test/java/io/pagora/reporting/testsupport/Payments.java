package io.pagora.reporting.testsupport;

import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Builds a payment's events with real-shaped ids: time-ordered payment ids, PIX chart customer accounts. */
public final class Payments {

    private static final TimeOrderedIds IDS = new TimeOrderedIds();
    private static final AtomicLong ACCOUNT_NUMBERS = new AtomicLong(System.nanoTime() & 0xFFFF_FFFFL);

    private Payments() {}

    /** A new customer account at the bank with this ISPB, never used before in this JVM. */
    public static String customer(int ispb) {
        return ChartOfAccounts.customer(new BankId(ispb), ACCOUNT_NUMBERS.incrementAndGet()).toString();
    }

    /** One payment; its outcomes all carry the same parties, amount and acceptedAt. */
    public record Payment(String paymentId, String payer, String payee, long amountCentavos, Instant acceptedAt) {

        public PaymentRequested requested() {
            return new PaymentRequested(paymentId, payer, payee, amountCentavos, "BRL", "test " + paymentId,
                    "E2E" + paymentId.substring(0, Math.min(20, paymentId.length())), acceptedAt);
        }

        public PaymentSettled settled(Instant at) {
            return new PaymentSettled(paymentId, payer, payee, amountCentavos, acceptedAt, at);
        }

        public PaymentSettled settled() {
            return settled(acceptedAt.plusMillis(40));
        }

        public PaymentRejected rejected(RejectionReason reason) {
            return new PaymentRejected(paymentId, payer, payee, amountCentavos, reason, "ledger code 42",
                    acceptedAt, acceptedAt.plusMillis(30));
        }

        public PaymentExpired expired() {
            return new PaymentExpired(paymentId, payer, payee, amountCentavos, acceptedAt, acceptedAt.plusSeconds(30));
        }
    }

    public static Payment between(String payer, String payee, long amountCentavos) {
        // Nanosecond precision on purpose: the read model must truncate consistently to microseconds.
        return new Payment(IDS.next().toString(), payer, payee, amountCentavos, Instant.now().plusNanos(123));
    }

    public static Payment any() {
        return between(customer(1), customer(2), 1_000);
    }

    public static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
