package io.pagora.clearing.config;

import io.pagora.ledger.adapter.Ledgers;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code pagora.ledger.*}: which ledger backend to open. The PostgreSQL ledger uses the service's
 * DataSource ({@code spring.datasource.*}), tables in schema {@code ledger}.
 *
 * @param backend {@code postgresql} or {@code tigerbeetle}
 * @param requestTimeout deadline of one TigerBeetle request
 * @param inFlightRequestsMax TigerBeetle requests in flight at once
 */
@ConfigurationProperties("pagora.ledger")
public record LedgerProperties(
        @DefaultValue("postgresql") String backend,
        @DefaultValue TigerBeetle tigerbeetle,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("64") int inFlightRequestsMax) {

    /** @param addresses replica addresses, e.g. {@code 127.0.0.1:3000} */
    public record TigerBeetle(@DefaultValue("127.0.0.1:3000") String addresses, @DefaultValue("0") long clusterId) {}

    public Ledgers.Settings settings() {
        return new Ledgers.Settings(backend, tigerbeetle.addresses(), tigerbeetle.clusterId(), requestTimeout,
                inFlightRequestsMax);
    }
}
