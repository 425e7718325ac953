package io.pagora.local.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * How a fault dented settlement: payments SETTLED per second (by their final time in the read model) before the
 * fault (the steady value: the median second of that stretch) and after it; the seconds from the fault's start to
 * the load's end during which settled/s stayed below half the steady value are the scenario's {@code degraded}
 * figure (docs/faults.md).
 */
public final class SettledRate {

    /** The first seconds of a scenario's load are left out of the steady value: the rate is still climbing. */
    static final Duration RAMP = Duration.ofSeconds(3);
    /** A steady stretch shorter than this is no evidence of a steady value: no figure. */
    static final int STEADY_SECONDS_MIN = 5;

    private SettledRate() {}

    /**
     * @return seconds in [{@code faultStart}, {@code loadEnd}) with settled/s below half the median of
     *     [{@code loadStart} + {@link #RAMP}, {@code faultStart}); -1 when that stretch is too short or settled nothing
     */
    static int degradedSeconds(
            Map<Long, Integer> settledPerSecond, Instant loadStart, Instant faultStart, Instant loadEnd) {
        long steadyFrom = loadStart.plus(RAMP).getEpochSecond();
        long faultSecond = faultStart.getEpochSecond();
        int steadySeconds = (int) Math.max(0, faultSecond - steadyFrom);
        if (steadySeconds < STEADY_SECONDS_MIN) {
            return -1;
        }
        int[] steady = new int[steadySeconds];
        for (int i = 0; i < steadySeconds; i++) {
            steady[i] = settledPerSecond.getOrDefault(steadyFrom + i, 0);
        }
        Arrays.sort(steady);
        double median = steady[steadySeconds / 2];
        if (median <= 0) {
            return -1;
        }
        int degraded = 0;
        for (long second = faultSecond; second < loadEnd.getEpochSecond(); second++) {
            if (settledPerSecond.getOrDefault(second, 0) < median / 2) {
                degraded++;
            }
        }
        return degraded;
    }

    /** SETTLED payments per epoch second of their final time, in [from, to). */
    static Map<Long, Integer> perSecond(DataSource dataSource, String schema, Instant from, Instant to)
            throws SQLException {
        String sql = "SELECT floor(extract(epoch FROM final_at))::bigint, count(*) FROM " + schema + ".payments"
                + " WHERE status = 'SETTLED' AND final_at >= ? AND final_at < ? GROUP BY 1";
        Map<Long, Integer> counts = new TreeMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setQueryTimeout(60);
            query.setTimestamp(1, Timestamp.from(from));
            query.setTimestamp(2, Timestamp.from(to));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getLong(1), rows.getInt(2));
                }
            }
        }
        return counts;
    }
}
