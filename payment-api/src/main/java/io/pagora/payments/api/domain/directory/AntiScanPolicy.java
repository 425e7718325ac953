package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.directory.TokenBucket.Limits;

/**
 * The look-up limits that keep a bank, or one of its end users, from learning who holds which key by trying keys
 * (DICT's anti-scanning policies): a bucket per end user of each bank ({@code PI-PayerId}, a person's or a company's
 * size) and one per bank. A look-up is let through while both buckets hold at least its admission level; then it
 * costs the hit cost if the key exists, the (far higher) miss cost if not, into debt if need be, so that a scan
 * empties the buckets many times faster than honest use. A look-up that is paid gives its hit cost back to both: an
 * honest payer's look-ups cost nothing in the end.
 */
public record AntiScanPolicy(
        Limits person,
        Limits company,
        Limits participant,
        int userHitCost,
        int userMissCost,
        int participantHitCost,
        int participantMissCost) {

    /** BCB's published policy for end users and a mid-sized participant (DICT's category D: 4,000 and 500/min). */
    public static final AntiScanPolicy DICT =
            new AntiScanPolicy(new Limits(100, 2), new Limits(1_000, 20), new Limits(4_000, 500), 1, 20, 1, 3);

    public AntiScanPolicy {
        Check.that(userHitCost >= 0 && userHitCost <= userMissCost, "a hit costs no more than a miss");
        Check.that(
                participantHitCost >= 0 && participantHitCost <= participantMissCost,
                "a hit costs no more than a miss");
        Check.that(userMissCost >= 1 && userMissCost <= person.burst(), "a miss costs 1..a person's burst");
        Check.that(participantMissCost >= 1 && participantMissCost <= participant.burst(), "a miss costs 1..the burst");
    }

    /** The bucket size of the end user {@code payerId} names (a CNPJ: a company's). */
    public Limits user(String payerId) {
        return TaxId.isCompany(payerId) ? company : person;
    }

    /** The least a bucket holds for a look-up to go through: the hit cost, and at least a whole token. */
    public static double admissionLevel(int hitCost) {
        return Math.max(1, hitCost);
    }
}
