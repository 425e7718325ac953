package io.pagora.payments.api.testsupport;

import io.pagora.events.Topics;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Real servers for the integration tests, one of each per test JVM: an embedded Kafka broker (KRaft)
 * and an embedded PostgreSQL (zonky). Each test class gets a fresh database, so classes never see each
 * other's ledger or idempotency keys. Both servers stop when the JVM exits.
 */
public final class TestInfrastructure {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedKafkaKraftBroker kafka;
    private static EmbeddedPostgres postgres;

    private TestInfrastructure() {}

    public static synchronized String kafkaBootstrapServers() {
        if (kafka == null) {
            kafka = new EmbeddedKafkaKraftBroker(1, Topics.PARTITIONS);
            kafka.afterPropertiesSet();
            Runtime.getRuntime().addShutdownHook(new Thread(kafka::destroy, "stop-test-kafka"));
        }
        return kafka.getBrokersAsString();
    }

    public static synchronized EmbeddedPostgres postgres() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder()
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("max_connections", "300")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start embedded PostgreSQL", e);
            }
            EmbeddedPostgres started = postgres;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the JVM is exiting
                }
            }, "stop-test-postgres"));
        }
        return postgres;
    }

    /** Creates an empty database and answers its JDBC URL (user and password: postgres). */
    public static String freshDatabaseUrl() {
        String name = "payment_api_" + DATABASES.incrementAndGet();
        try (Connection admin = postgres().getPostgresDatabase().getConnection();
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        return postgres().getJdbcUrl("postgres", name);
    }

    /** The properties that point payment-api at a fresh database and the shared broker. */
    public static void register(DynamicPropertyRegistry registry) {
        String url = freshDatabaseUrl();
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "postgres");
        registry.add("spring.kafka.bootstrap-servers", TestInfrastructure::kafkaBootstrapServers);
    }

    /** A loopback port nothing listens on (bound then released). */
    public static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
