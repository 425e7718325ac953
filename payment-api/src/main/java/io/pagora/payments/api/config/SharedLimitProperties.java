package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the per-participant limits hold for the whole switch ({@code pagora.payments.shared-limits.*}; docs/scale-out.md):
 * each instance leases tokens from buckets in PostgreSQL every instance shares, and counts the live instances.
 *
 * @param enabled false: each instance keeps its limits in its memory alone (one instance only: with n, every bank
 *     gets n times its limits)
 * @param leaseInterval how often an instance tops up its holdings (the refill's granularity)
 * @param hold an idle participant's unspent holding goes back to the shared bucket after this long
 * @param heartbeat how often an instance says it is alive
 * @param liveFor an instance not heard of for this long no longer counts among the live ones
 * @param failAfter the database not answering for this long: each instance admits on its share of the limit alone
 * @param leaseWait the longest a participant's first payment on an instance (or first after an idle spell) waits for
 *     its lease
 * @param queryTimeout a lease or heartbeat statement's bound
 */
@ConfigurationProperties("pagora.payments.shared-limits")
public record SharedLimitProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("10ms") Duration leaseInterval,
        @DefaultValue("1s") Duration hold,
        @DefaultValue("1s") Duration heartbeat,
        @DefaultValue("5s") Duration liveFor,
        @DefaultValue("3s") Duration failAfter,
        @DefaultValue("1s") Duration leaseWait,
        @DefaultValue("2s") Duration queryTimeout) {

    public SharedLimitProperties {
        Check.that(
                leaseInterval.toMillis() >= 1 && leaseInterval.toMillis() <= 1_000,
                "pagora.payments.shared-limits.lease-interval in 1ms..1s");
        Check.that(hold.compareTo(leaseInterval) >= 0, "pagora.payments.shared-limits.hold at least lease-interval");
        Check.that(
                heartbeat.toMillis() >= 1 && liveFor.compareTo(heartbeat) > 0,
                "pagora.payments.shared-limits.live-for longer than heartbeat");
        Check.that(
                failAfter.compareTo(heartbeat) > 0, "pagora.payments.shared-limits.fail-after longer than heartbeat");
        Check.that(
                leaseWait.toMillis() >= 0 && leaseWait.toMillis() <= 10_000,
                "pagora.payments.shared-limits.lease-wait in 0..10s");
        Check.that(queryTimeout.toSeconds() >= 1, "pagora.payments.shared-limits.query-timeout at least 1s");
    }
}
