package io.pagora.ledger.adapter;

import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.Ledger;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Opens the configured ledger backend, so every service chooses it the same way:
 * {@code tigerbeetle} (a TigerBeetle 0.16.78 cluster, 0.16.30 client) or {@code postgresql} (the PostgreSQL ledger in
 * schema {@value PostgresLedger#SCHEMA} of the given database, migrated on open).
 */
public final class Ledgers {

    private Ledgers() {}

    public record Settings(
            String backend,
            String tigerBeetleAddresses,
            long tigerBeetleClusterId,
            Duration requestTimeout,
            int inFlightRequestsMax) {

        public static Settings postgres() {
            return new Settings("postgresql", "", 0, Duration.ofSeconds(10), 64);
        }
    }

    public static Ledger open(Settings settings, Supplier<DataSource> postgres) {
        return switch (settings.backend().toLowerCase(Locale.ROOT)) {
            case "tigerbeetle" ->
                new TigerBeetleLedger(
                        settings.tigerBeetleClusterId(),
                        settings.tigerBeetleAddresses(),
                        new TigerBeetleLedger.Config(settings.requestTimeout(), settings.inFlightRequestsMax()));
            case "postgresql" -> PostgresLedger.migrateAndOpen(postgres.get());
            default ->
                throw new IllegalArgumentException(
                        "pagora.ledger.backend must be tigerbeetle or postgresql, not " + settings.backend());
        };
    }
}
