package io.pagora.reporting.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One real embedded PostgreSQL server (zonky) per test JVM, and a fresh database on it for every test
 * class, so test classes never see each other's rows. Stopped when the JVM exits.
 */
public final class TestPostgres {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TestPostgres() {}

    /** Creates {@code reporting_<n>} and returns its JDBC URL; user and password are {@link #USER}. */
    public static String freshDatabaseUrl() {
        EmbeddedPostgres shared = server();
        String name = "reporting_" + DATABASES.incrementAndGet();
        try (Connection admin = shared.getPostgresDatabase().getConnection();
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        return shared.getJdbcUrl(USER, name);
    }

    public static final String USER = "postgres";

    /** Points the service at a fresh database ({@link #freshDatabaseUrl()}): call it from a {@code @DynamicPropertySource}. */
    public static void registerFreshDatabase(DynamicPropertyRegistry registry) {
        String url = freshDatabaseUrl();
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", () -> USER);
        registry.add("spring.datasource.password", () -> USER);
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
