package io.pagora.local.servers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;

/**
 * PostgreSQL for machines without Debian's server binaries: the zonky embedded PostgreSQL binaries
 * (the same ones the integration tests use, and they run as root), on 127.0.0.1:{@code --port}.
 *
 * <p>Unlike the tests' throw-away servers this one is durable — fsync, synchronous commit and
 * full-page writes on (zonky starts postgres with {@code -F}; the explicit {@code fsync=on} comes later
 * on the command line and wins) — and keeps its data directory across restarts: initdb runs only
 * when the directory has no cluster yet. Creates the login role and database (default
 * {@code pagora}/{@code pagora}) when missing. Runs until SIGTERM/SIGINT, then stops the server
 * (pg_ctl stop, fast mode: a clean shutdown checkpoint).
 */
public final class LocalPostgres {

    private LocalPostgres() {}

    public static void main(String[] args) throws Exception {
        LocalPostgresOptions options = LocalPostgresOptions.parse(args);

        Files.createDirectories(options.dataDir().getParent());
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(options.dataDir())
                .setCleanDataDirectory(false)
                .setPort(options.port())
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", Integer.toString(options.connectionsMax()))
                .setServerConfig("timezone", "UTC")
                .start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("LocalPostgres: stopping");
                            try {
                                postgres.close();
                            } catch (Exception e) {
                                System.out.println("LocalPostgres: stop failed: " + e);
                            }
                            stopped.countDown();
                            System.out.println("LocalPostgres: stopped");
                        },
                        "local-postgres-shutdown"));

        DataSource admin = postgres.getPostgresDatabase();
        ensureRoleAndDatabase(admin, options.user(), options.password(), options.database());
        System.out.printf(
                "LocalPostgres: ready on 127.0.0.1:%d (embedded PostgreSQL %s, fsync=%s, data %s), database %s, user %s%n",
                options.port(),
                setting(admin, "server_version"),
                setting(admin, "fsync"),
                options.dataDir(),
                options.database(),
                options.user());
        stopped.await();
    }

    /**
     * Lets the platform's role force a checkpoint (PostgreSQL 15's {@code pg_checkpoint}; a no-op before it): the bench
     * forces one inside its window, so that a checkpoint's cost is measured as part of steady state, not tuned away.
     */
    public static final String GRANT_CHECKPOINT =
            "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pg_checkpoint')"
                    + " THEN GRANT pg_checkpoint TO %s; END IF; END $$";

    static void ensureRoleAndDatabase(DataSource admin, String user, String password, String database)
            throws SQLException {
        try (Connection connection = admin.getConnection();
                Statement statement = connection.createStatement()) {
            if (!exists(connection, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
                // Identifiers and the password come from our own command line, never from a client.
                statement.execute("CREATE ROLE " + quoteIdentifier(user) + " LOGIN PASSWORD " + quoteLiteral(password));
            }
            if (!exists(connection, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
                statement.execute("CREATE DATABASE " + quoteIdentifier(database) + " OWNER " + quoteIdentifier(user));
            }
            statement.execute(GRANT_CHECKPOINT.formatted(quoteIdentifier(user)));
        }
    }

    private static boolean exists(Connection connection, String sql, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, name);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static String setting(DataSource admin, String name) throws SQLException {
        try (Connection connection = admin.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW " + name)) {
            rows.next();
            return rows.getString(1);
        }
    }

    public static String quoteIdentifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String quoteLiteral(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
