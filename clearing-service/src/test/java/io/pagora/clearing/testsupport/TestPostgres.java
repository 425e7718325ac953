package io.pagora.clearing.testsupport;

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
 * One embedded PostgreSQL server (zonky) per test JVM, and a fresh database on it per test, so tests
 * never see each other's ledgers. The server stops when the JVM exits.
 */
public final class TestPostgres {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TestPostgres() {}

    /** A fresh database: its JDBC coordinates (for the service) and a small pool (for the test itself). */
    public record Database(String url, String user, String password, HikariDataSource dataSource) implements AutoCloseable {
        @Override
        public void close() {
            dataSource.close();
        }
    }

    public static Database freshDatabase() {
        EmbeddedPostgres postgres = server();
        String name = "clearing_" + DATABASES.incrementAndGet();
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        String url = postgres.getJdbcUrl("postgres", name);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername("postgres");
        config.setPassword("postgres");
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        config.setPoolName("test-" + name);
        return new Database(url, "postgres", "postgres", new HikariDataSource(config));
    }

    private static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("max_connections", "200")
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
            }, "stop-test-postgres"));
        }
        return server;
    }
}
