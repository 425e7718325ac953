package io.pagora.testing;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * One real PostgreSQL server per test JVM, and a fresh database on it for every caller.
 *
 * <p>The server is a Testcontainers PostgreSQL container when Docker is available, otherwise an
 * embedded PostgreSQL (zonky) started from the binaries on the test classpath. Set
 * {@code -Dpagora.postgres=embedded} or {@code =docker} to force one. Which one was used is printed
 * once. The server is stopped when the JVM exits.
 *
 * <p>{@link #freshDatabase()} creates {@code pagora_<n>} and returns a {@link Database}: its coordinates (for a
 * Spring context's {@code spring.datasource.*}, {@link Database#register}) and a small HikariCP pool on it (for
 * the test itself, opened on first use), so tests never see each other's data. Callers close it when done.
 */
public final class TestPostgres {

    /** The container image when Docker is used. */
    public static final String IMAGE = "postgres:17-alpine";

    private static final int POOL_SIZE = 16;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static Server server;

    private TestPostgres() {}

    /**
     * A fresh database: where it is, and a pool of at most {@value #POOL_SIZE} connections on it that connects
     * only when first used (a test that hands the database to a Spring context holds no connection itself).
     */
    public record Database(String name, String url, String user, String password, HikariDataSource dataSource)
            implements AutoCloseable {

        /** Points a Spring context at this database: call it from a {@code @DynamicPropertySource}. */
        public void register(DynamicPropertyRegistry registry) {
            springProperties().forEach((property, value) -> registry.add(property, () -> value));
        }

        /** The {@code spring.datasource.*} properties of this database, e.g. for a service started by hand. */
        public Map<String, String> springProperties() {
            return Map.of(
                    "spring.datasource.url",
                    url,
                    "spring.datasource.username",
                    user,
                    "spring.datasource.password",
                    password);
        }

        @Override
        public void close() {
            dataSource.close();
        }
    }

    /** A new, empty database on the shared server. */
    public static Database freshDatabase() {
        Server shared = server();
        String name = "pagora_" + DATABASES.incrementAndGet();
        try (Connection admin =
                        DriverManager.getConnection(shared.jdbcUrl("postgres"), shared.user(), shared.password());
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name + " on " + shared.description(), e);
        }
        String url = shared.jdbcUrl(name);
        // Not started here: HikariDataSource's no-argument constructor opens its pool on the first getConnection().
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        pool.setUsername(shared.user());
        pool.setPassword(shared.password());
        pool.setMaximumPoolSize(POOL_SIZE);
        pool.setMinimumIdle(1);
        pool.setPoolName(name);
        pool.setConnectionTimeout(10_000);
        return new Database(name, url, shared.user(), shared.password(), pool);
    }

    /** A fresh database for a Spring context: call it from a test class's {@code @DynamicPropertySource}. */
    public static void register(DynamicPropertyRegistry registry) {
        freshDatabase().register(registry);
    }

    /** Which PostgreSQL the tests run against, e.g. for reports. */
    public static String description() {
        return server().description();
    }

    private static synchronized Server server() {
        TestLane.requireServerLane("PostgreSQL (TestPostgres)");
        if (server == null) {
            server = start();
            System.out.println("[TestPostgres] using " + server.description());
        }
        return server;
    }

    private static Server start() {
        String forced = System.getProperty("pagora.postgres", "");
        boolean docker = switch (forced) {
            case "docker" -> true;
            case "embedded" -> false;
            default -> dockerAvailable();
        };
        return docker ? startContainer() : startEmbedded();
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static Server startContainer() {
        @SuppressWarnings("resource") // stopped by the shutdown hook (and by Ryuk if the JVM dies)
        PostgreSQLContainer container = new PostgreSQLContainer(IMAGE)
                .withCommand(
                        "postgres",
                        "-c",
                        "fsync=off",
                        "-c",
                        "synchronous_commit=off",
                        "-c",
                        "full_page_writes=off",
                        "-c",
                        "max_connections=400");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "stop-test-postgres"));
        String host = container.getHost();
        int port = container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT);
        return new Server(
                "Testcontainers " + IMAGE + " at " + host + ":" + port,
                database -> "jdbc:postgresql://" + host + ":" + port + "/" + database,
                container.getUsername(),
                container.getPassword());
    }

    private static Server startEmbedded() {
        EmbeddedPostgres embedded;
        try {
            embedded = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("max_connections", "400")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL (and Docker is not available)", e);
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                embedded.close();
                            } catch (IOException ignored) {
                                // the JVM is exiting
                            }
                        },
                        "stop-test-postgres"));
        String version = serverVersion(embedded);
        return new Server(
                "embedded PostgreSQL " + version + " (zonky) at 127.0.0.1:" + embedded.getPort(),
                database -> embedded.getJdbcUrl("postgres", database),
                "postgres",
                "postgres");
    }

    private static String serverVersion(EmbeddedPostgres embedded) {
        try (Connection connection = embedded.getPostgresDatabase().getConnection()) {
            return connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            return "?";
        }
    }

    private record Server(
            String description, java.util.function.Function<String, String> urls, String user, String password) {
        String jdbcUrl(String database) {
            return urls.apply(database);
        }
    }
}
