package io.pagora.service.ledger;

import io.pagora.ledger.adapter.Ledgers;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code pagora.ledger.*}: which ledger backend every Pagora service opens, and how. The PostgreSQL ledger
 * uses the service's own DataSource ({@code spring.datasource.*}), tables in schema {@code ledger}, migrated
 * on open; the TigerBeetle settings are ignored then.
 *
 * @param backend {@code postgresql} or {@code tigerbeetle}
 * @param requestTimeout deadline of one TigerBeetle request
 * @param inFlightRequestsMax TigerBeetle requests submitted and unanswered at once, per process
 */
@ConfigurationProperties("pagora.ledger")
public record LedgerProperties(
        @DefaultValue("postgresql") String backend,
        @DefaultValue TigerBeetle tigerbeetle,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("64") int inFlightRequestsMax) {

    /**
     * @param addresses comma-separated {@code host:port} of the replicas, e.g. {@code 127.0.0.1:3000}
     * @param clusterId the cluster's id
     */
    public record TigerBeetle(
            @DefaultValue("127.0.0.1:3000") String addresses,
            @DefaultValue("0") long clusterId) {}

    public Ledgers.Settings settings() {
        return new Ledgers.Settings(
                backend, tigerbeetle.addresses(), tigerbeetle.clusterId(), requestTimeout, inFlightRequestsMax);
    }
}
