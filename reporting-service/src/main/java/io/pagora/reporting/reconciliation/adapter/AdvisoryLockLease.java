package io.pagora.reporting.reconciliation.adapter;

import io.pagora.kernel.Check;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconciliation's lease: a PostgreSQL session-level advisory lock ({@code pg_try_advisory_lock}), held by one
 * reporting-service instance at a time on a connection of its own, outside the pool. The lock lives as long as that
 * session: an instance that stops, is killed or loses its connection loses the lock with it, and the next instance to
 * ask gets it; no expiry to tune, no clock to trust. A pooled connection would not do: returned to the pool with the
 * lock still held, it would keep the lock for whoever borrowed it next.
 *
 * <p>Between losing the connection and noticing (the next {@link #held()}) the old holder may finish a round that the
 * new one also runs: rounds only read and judge, so that costs a round's work twice, never a wrong verdict.
 */
final class AdvisoryLockLease implements RoundLease {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLockLease.class);
    /** The lock's key, one per purpose in the database: "reconciliation" in ASCII, truncated to 8 bytes. */
    static final long RECONCILIATION_KEY = 0x7265636f6e63696cL;
    /** Every call on the lease's connection has a deadline: a stuck database must not stall the round's thread. */
    private static final int TIMEOUT_SECONDS = 5;

    private final String url;
    private final Properties credentials;
    private final long key;
    private Connection connection;

    AdvisoryLockLease(String url, String user, String password, long key) {
        Check.that(url.startsWith("jdbc:postgresql:"), "the reconciliation lease needs PostgreSQL: %s", url);
        this.url = url;
        this.credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        credentials.setProperty("connectTimeout", Integer.toString(TIMEOUT_SECONDS));
        credentials.setProperty("socketTimeout", Integer.toString(2 * TIMEOUT_SECONDS));
        credentials.setProperty("ApplicationName", "pagora-reconciliation-lease");
        this.key = key;
    }

    @Override
    public synchronized boolean held() {
        if (connection != null) {
            if (alive(connection)) {
                return true;
            }
            log.warn("reconciliation lease lost: its database session ended; asking for it again");
            closeQuietly();
        }
        Connection candidate = null;
        try {
            candidate = DriverManager.getConnection(url, credentials);
            if (tryLock(candidate)) {
                connection = candidate;
                log.info("reconciliation lease acquired: this instance runs the online reconciliation");
                return true;
            }
            candidate.close();
            return false;
        } catch (SQLException e) {
            log.warn("reconciliation lease not checked ({}): no round until it is", e.getMessage());
            closeQuietly(candidate);
            return false;
        }
    }

    @Override
    public synchronized void release() {
        if (connection != null) {
            // Closing the session releases its advisory locks.
            closeQuietly();
            log.info("reconciliation lease released");
        }
    }

    private boolean tryLock(Connection candidate) throws SQLException {
        try (PreparedStatement statement = candidate.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            statement.setQueryTimeout(TIMEOUT_SECONDS);
            statement.setLong(1, key);
            try (ResultSet row = statement.executeQuery()) {
                Check.that(row.next(), "pg_try_advisory_lock answered no row");
                return row.getBoolean(1);
            }
        }
    }

    private static boolean alive(Connection held) {
        try {
            return held.isValid(TIMEOUT_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    private void closeQuietly() {
        closeQuietly(connection);
        connection = null;
    }

    private static void closeQuietly(Connection closing) {
        if (closing == null) {
            return;
        }
        try {
            closing.close();
        } catch (SQLException ignored) {
            // The session is gone either way: its lock with it.
        }
    }
}
