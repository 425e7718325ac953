package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.TokenBucket.Limits;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The key directory, {@code pagora.directory.*} (docs/directory.md). The buckets' defaults are DICT's published
 * anti-scanning policy: an end user 100 tokens and 2 a minute (a company 1,000 and 20), a look-up of a missing key
 * costing 20 of them; a bank 50,000 and 25,000 a minute, a miss costing 3.
 *
 * @param lookUpValidFor how long after its look-up a payment may name its end-to-end id
 * @param lookUpRetentionDays look-ups are kept this many days (whole days dropped), at least the validity
 * @param committers look-up committer threads (each one store transaction at a time)
 * @param batchMax look-ups in one store transaction at most
 * @param queueMax look-ups waiting at most; beyond, 429 at once
 * @param waitMax the longest a look-up waits for its batch
 * @param lookupBatchesMax {@code POST /directory/lookups/batch} calls in their transaction at once; beyond, 429
 * @param claimResolutionPeriod how long the donor bank has to confirm or cancel a claim (DICT: 7 days)
 * @param claimSweepInterval how often claims past their deadline are resolved
 */
@ConfigurationProperties("pagora.directory")
public record DirectoryProperties(
        @DefaultValue("10m") Duration lookUpValidFor,
        @DefaultValue("2") int lookUpRetentionDays,
        @DefaultValue("100") long personBurst,
        @DefaultValue("2") double personRefillPerMinute,
        @DefaultValue("1000") long companyBurst,
        @DefaultValue("20") double companyRefillPerMinute,
        @DefaultValue("50000") long participantBurst,
        @DefaultValue("25000") double participantRefillPerMinute,
        @DefaultValue("1") int userHitCost,
        @DefaultValue("20") int userMissCost,
        @DefaultValue("1") int participantHitCost,
        @DefaultValue("3") int participantMissCost,
        @DefaultValue("2") int committers,
        @DefaultValue("512") int batchMax,
        @DefaultValue("20000") int queueMax,
        @DefaultValue("5s") Duration waitMax,
        @DefaultValue("4") int lookupBatchesMax,
        @DefaultValue("7d") Duration claimResolutionPeriod,
        @DefaultValue("1s") Duration claimSweepInterval) {

    public DirectoryProperties {
        Check.that(
                lookUpValidFor.toSeconds() >= 10 && lookUpValidFor.toHours() <= 24,
                "pagora.directory.look-up-valid-for in 10s..24h: %s",
                lookUpValidFor);
        Check.that(
                lookUpRetentionDays >= 1 && lookUpRetentionDays <= 366,
                "pagora.directory.look-up-retention-days in 1..366: %d",
                lookUpRetentionDays);
        Check.that(committers >= 1 && committers <= 64, "pagora.directory.committers in 1..64");
        Check.that(batchMax >= 1 && batchMax <= 4096, "pagora.directory.batch-max in 1..4096");
        Check.that(queueMax >= batchMax && queueMax <= 1_000_000, "pagora.directory.queue-max in batch-max..10^6");
        Check.that(waitMax.toMillis() >= 1 && waitMax.toSeconds() <= 60, "pagora.directory.wait-max in 1ms..60s");
        Check.that(
                claimResolutionPeriod.toSeconds() >= 1 && claimResolutionPeriod.toDays() <= 30,
                "pagora.directory.claim-resolution-period in 1s..30d: %s",
                claimResolutionPeriod);
        Check.that(
                claimSweepInterval.toMillis() >= 100 && claimSweepInterval.toSeconds() <= 60,
                "pagora.directory.claim-sweep-interval in 100ms..60s: %s",
                claimSweepInterval);
    }

    /** The policy these settings make; checked where it is built, at startup (AntiScanPolicy's assertions). */
    public AntiScanPolicy policy() {
        return new AntiScanPolicy(
                new Limits(personBurst, personRefillPerMinute),
                new Limits(companyBurst, companyRefillPerMinute),
                new Limits(participantBurst, participantRefillPerMinute),
                userHitCost,
                userMissCost,
                participantHitCost,
                participantMissCost);
    }
}
