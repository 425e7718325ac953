package io.pagora.reporting.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;

/**
 * What one projection transaction inserted into the read model's payments: how many rows, their total amount,
 * and an order-independent fingerprint of each row's id, parties and amount. The projection writes it in the
 * transaction that inserts the rows ({@code reporting.projection_digests}); the reconciliation adds up the rows it
 * walks per inserting transaction and compares. A row planted, lost or re-keyed outside the projection makes its
 * transaction's rows disagree with the digest, whatever the leg sample: the reconciliation then asks the ledger
 * about those rows. It guards against accidents (a restore, a hand-written row, a bug that writes rows another
 * way), not against someone who can also write the digests.
 */
public record ProjectionDigest(long payments, long amountCentavos, long fingerprint) {

    public static final ProjectionDigest NONE = new ProjectionDigest(0, 0, 0);

    public ProjectionDigest {
        Check.that(payments >= 0, "a digest counts payments from zero: %d", payments);
    }

    /** This digest with one more row. Amounts add up exactly (a long overflow is a crash, never a wrap). */
    public ProjectionDigest plus(Id128 paymentId, Id128 payer, Id128 payee, long amountCentavos) {
        return new ProjectionDigest(
                payments + 1,
                Math.addExact(this.amountCentavos, amountCentavos),
                fingerprint + rowHash(paymentId, payer, payee, amountCentavos));
    }

    /** One row's hash: every bit of every field moves every bit of the hash (sums of these are order-independent). */
    static long rowHash(Id128 paymentId, Id128 payer, Id128 payee, long amountCentavos) {
        long h = mix(paymentId.hi());
        h = mix(h ^ paymentId.lo());
        h = mix(h ^ payer.hi());
        h = mix(h ^ payer.lo());
        h = mix(h ^ payee.hi());
        h = mix(h ^ payee.lo());
        return mix(h ^ amountCentavos);
    }

    /** {@link Mix64} after adding the golden-ratio constant, so that zero does not hash to zero. */
    private static long mix(long value) {
        return Mix64.mix(value + 0x9e3779b97f4a7c15L);
    }
}
