package io.pagora.e2e.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real embedded PostgreSQL server (zonky) per test JVM, and a fresh database on it for every
 * scenario: the three services share that database (schemas {@code payment_api}, {@code reporting},
 * {@code ledger}), as they do in production, and no scenario sees another's rows. Stopped at JVM exit.
 */
public final class TestPostgres {

    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TestPostgres() {}

    /** A fresh, empty database: its JDBC URL, and a small pool for the test's own ledger connection. */
    public record Database(String name, String url, HikariDataSource dataSource) implements AutoCloseable {
        @Override
        public void close() {
            dataSource.close();
        }
    }

    public static Database freshDatabase() {
        String name = "pagora_e2e_" + DATABASES.incrementAndGet();
        try (Connection admin = server().getPostgresDatabase().getConnection();
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        String url = server().getJdbcUrl(USER, name);
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(url);
        pool.setUsername(USER);
        pool.setPassword(PASSWORD);
        pool.setMaximumPoolSize(4);
        pool.setPoolName("e2e-test-ledger");
        return new Database(name, url, new HikariDataSource(pool));
    }

    private static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        // Durability is not under test here (the ledger's own suite covers it); speed is.
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("max_connections", "300")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start embedded PostgreSQL", e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the JVM is exiting
                }
            }, "stop-e2e-postgres"));
        }
        return server;
    }
}
