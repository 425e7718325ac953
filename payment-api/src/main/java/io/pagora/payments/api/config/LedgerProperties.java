package io.pagora.payments.api.config;

import io.pagora.ledger.adapter.Ledgers;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which ledger backend to use ({@code pagora.ledger.*}), shared by every Pagora service.
 *
 * @param backend {@code postgresql} (the service's own DataSource, schema {@code ledger}) or {@code tigerbeetle}
 * @param requestTimeout deadline of one ledger request
 * @param inFlightRequestsMax concurrent TigerBeetle requests per process
 */
@ConfigurationProperties("pagora.ledger")
public record LedgerProperties(
        @DefaultValue("postgresql") String backend,
        @DefaultValue TigerBeetle tigerbeetle,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("64") int inFlightRequestsMax) {

    /** @param addresses comma-separated host:port of the replicas; {@code clusterId} the cluster's id */
    public record TigerBeetle(@DefaultValue("127.0.0.1:3000") String addresses, @DefaultValue("0") long clusterId) {}

    public Ledgers.Settings settings() {
        return new Ledgers.Settings(backend, tigerbeetle.addresses(), tigerbeetle.clusterId(), requestTimeout,
                inFlightRequestsMax);
    }
}
