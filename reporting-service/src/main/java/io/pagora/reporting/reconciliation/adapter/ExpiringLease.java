package io.pagora.reporting.reconciliation.adapter;

import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The reconciliation's lease: a row of {@code reconciliation_lease}, held by one reporting-service instance until its
 * {@code expires_at}, renewed by the holder every time it asks ({@link #held()}), taken over by any other instance once
 * expired. Only the database's clock ({@code now()}) sets and judges the expiry: the instances' clocks never meet.
 *
 * <p>A lease that expires does not depend on the holder's connection ending: a holder frozen (a stopped process, a
 * long pause, a network cut that never closes its socket) stops renewing, and the lease passes on one
 * {@code duration} after its last renewal, whatever PostgreSQL still thinks of its sessions. Every takeover raises
 * the row's {@code generation}; the holder renews only the generation it took, so one that wakes after a takeover
 * finds nothing to renew and knows it lost before its next round.
 *
 * <p>Until it asks again, a holder that was frozen in the middle of a round may finish that round while the new holder
 * runs one: rounds only read and judge, so that costs a round's work twice, never a wrong verdict.
 */
final class ExpiringLease implements RoundLease {

    private static final Logger log = LoggerFactory.getLogger(ExpiringLease.class);
    /** The reconciliation's row: one per purpose in the table. */
    static final String RECONCILIATION = "reconciliation";

    private static final String RENEW = """
            UPDATE reporting.reconciliation_lease SET expires_at = now() + make_interval(secs => ?)
            WHERE name = ? AND holder = ? AND generation = ?""";
    /** Takes the row when there is none, or when it has expired; a concurrent taker waits and then finds it held. */
    private static final String TAKE = """
            INSERT INTO reporting.reconciliation_lease AS lease (name, holder, generation, expires_at)
            VALUES (?, ?, 1, now() + make_interval(secs => ?))
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, generation = lease.generation + 1,
                expires_at = excluded.expires_at
            WHERE lease.expires_at <= now()
            RETURNING generation""";
    /** Expires the row now, if still this holder's: the next instance to ask takes it. */
    private static final String RELEASE = """
            UPDATE reporting.reconciliation_lease SET expires_at = now()
            WHERE name = ? AND holder = ? AND generation = ?""";

    private final JdbcTemplate jdbc;
    private final String name;
    private final double durationSeconds;
    /** This instance among the others, in the row and the logs: its process and a random part (hosts share pids). */
    private final String holder;
    /** The generation this instance took, 0 when it holds none. */
    private long generation;

    ExpiringLease(JdbcTemplate jdbc, String name, Duration duration) {
        Check.that(duration.toMillis() > 0, "a lease lasts: %s", duration);
        this.jdbc = jdbc;
        this.name = name;
        this.durationSeconds = duration.toMillis() / 1000.0;
        this.holder = "pid " + ProcessHandle.current().pid() + " "
                + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public synchronized boolean held() {
        try {
            if (generation != 0) {
                if (jdbc.update(RENEW, durationSeconds, name, holder, generation) == 1) {
                    return true;
                }
                log.warn(
                        "reconciliation lease lost: another instance took it over (this one held generation {})",
                        generation);
                generation = 0;
            }
            List<Long> taken = jdbc.queryForList(TAKE, Long.class, name, holder, durationSeconds);
            Check.that(taken.size() <= 1, "one lease row per name, %s taken", taken.size());
            if (taken.isEmpty()) {
                return false;
            }
            generation = taken.getFirst();
            Check.that(generation > 0, "a lease generation is positive: %s", generation);
            log.info(
                    "reconciliation lease acquired (generation {}, holder {}): this instance runs the online "
                            + "reconciliation",
                    generation,
                    holder);
            return true;
        } catch (DataAccessException e) {
            // The generation is kept: if nobody took the lease meanwhile, the next renewal finds it still ours.
            log.warn("reconciliation lease not checked ({}): no round until it is", e.getMessage());
            return false;
        }
    }

    @Override
    public synchronized void release() {
        if (generation == 0) {
            return;
        }
        try {
            jdbc.update(RELEASE, name, holder, generation);
            log.info("reconciliation lease released");
        } catch (DataAccessException e) {
            log.warn("reconciliation lease not released ({}): it passes on when it expires", e.getMessage());
        }
        generation = 0;
    }
}
