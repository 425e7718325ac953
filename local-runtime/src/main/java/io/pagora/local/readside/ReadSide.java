package io.pagora.local.readside;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.cli.Options;
import java.time.Duration;

/**
 * The platform as the tools that judge it read it: the database of the read model (and of the PostgreSQL
 * ledger), and the ledger through its port. Read only: nothing here writes.
 *
 * <pre>
 *   [--jdbc-url=jdbc:postgresql://127.0.0.1:5432/pagora] [--db-user=pagora] [--db-password=pagora]
 *   [--ledger-backend=postgresql|tigerbeetle] [--tigerbeetle-addresses=127.0.0.1:3000] [--tigerbeetle-cluster-id=0]
 * </pre>
 */
public record ReadSide(HikariDataSource dataSource, Ledger ledger) implements AutoCloseable {

    /** Every call's deadline: a ledger request, a connection from the pool. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /** The connection options, read (and so known to {@link Options#rejectUnknown()}) before anything opens. */
    public record Settings(String jdbcUrl, String user, String password, Ledgers.Settings ledger) {

        public static Settings from(Options options) {
            return new Settings(
                    options.string("jdbc-url", "jdbc:postgresql://127.0.0.1:5432/pagora"),
                    options.string("db-user", "pagora"),
                    options.string("db-password", "pagora"),
                    new Ledgers.Settings(
                            options.string("ledger-backend", "postgresql"),
                            options.string("tigerbeetle-addresses", "127.0.0.1:3000"),
                            options.longValue("tigerbeetle-cluster-id", 0),
                            CALL_TIMEOUT,
                            16));
        }
    }

    public static ReadSide open(Settings settings, String poolName) {
        HikariDataSource dataSource = openDatabase(settings, poolName);
        try {
            return new ReadSide(dataSource, Ledgers.open(settings.ledger(), () -> dataSource));
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /**
     * The platform's database alone (the read model), for a caller that never needs the ledger: opening the
     * PostgreSQL ledger would migrate its schema, a write this side must not make (on a TigerBeetle run, tables
     * that should not exist).
     */
    public static HikariDataSource openDatabase(Settings settings, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(4);
        config.setPoolName(poolName);
        config.setConnectionTimeout(10_000);
        return new HikariDataSource(config);
    }

    @Override
    public void close() {
        try {
            ledger.close();
        } finally {
            dataSource.close();
        }
    }
}
