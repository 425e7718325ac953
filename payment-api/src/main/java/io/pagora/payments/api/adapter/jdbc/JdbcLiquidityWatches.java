package io.pagora.payments.api.adapter.jdbc;

import io.pagora.payments.api.application.liquidity.LiquidityWatches;
import io.pagora.payments.api.application.liquidity.WatchedReserve;
import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/** The banks' watches in {@code payment_api.liquidity_watch}; each crossing a compare-and-set on its sequence. */
public final class JdbcLiquidityWatches implements LiquidityWatches {

    private static final String COLUMNS = "ispb, low_centavos, high_centavos, state, since, sequence, told, crossing,"
            + " crossed_available, crossed_low, crossed_high";

    private static final String PAGE =
            "SELECT " + COLUMNS + " FROM payment_api.liquidity_watch WHERE ispb > ? ORDER BY ispb LIMIT ?";

    private static final String ONE = "SELECT " + COLUMNS + " FROM payment_api.liquidity_watch WHERE ispb = ?";

    private static final String SET = "INSERT INTO payment_api.liquidity_watch"
            + " (ispb, low_centavos, high_centavos, state, since, sequence, told) VALUES (?, ?, ?, 'ARMED', ?, 0, 0)"
            + " ON CONFLICT (ispb) DO UPDATE SET low_centavos = EXCLUDED.low_centavos,"
            + " high_centavos = EXCLUDED.high_centavos RETURNING " + COLUMNS;

    private static final String CROSS = "UPDATE payment_api.liquidity_watch SET state = ?, since = ?,"
            + " sequence = sequence + 1, crossing = ?, crossed_available = ?, crossed_low = ?, crossed_high = ?"
            + " WHERE ispb = ? AND sequence = ? AND low_centavos = ? AND high_centavos = ?";

    private static final String TOLD =
            "UPDATE payment_api.liquidity_watch SET told = ? WHERE ispb = ? AND told < ? AND sequence >= ?";

    private final JdbcTemplate jdbc;

    public JdbcLiquidityWatches(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<WatchedReserve> page(int afterIspb, int limit) {
        return jdbc.query(PAGE, (row, n) -> watched(row), afterIspb, limit);
    }

    @Override
    public Optional<WatchedReserve> of(BankId bank) {
        return jdbc.query(ONE, (row, n) -> watched(row), bank.ispb()).stream().findFirst();
    }

    @Override
    public WatchedReserve setWatermarks(BankId bank, Watermarks marks, Instant at) {
        return jdbc.queryForObject(
                SET,
                (row, n) -> watched(row),
                bank.ispb(),
                marks.lowCentavos(),
                marks.highCentavos(),
                Timestamp.from(at));
    }

    @Override
    public boolean cross(WatchedReserve from, ReserveWatch to, ReserveWatch.Crossing crossing, long availableCentavos) {
        return jdbc.update(
                        CROSS,
                        to.state().name(),
                        Timestamp.from(to.since()),
                        crossing.name(),
                        availableCentavos,
                        from.marks().lowCentavos(),
                        from.marks().highCentavos(),
                        from.bank().ispb(),
                        from.sequence(),
                        from.marks().lowCentavos(),
                        from.marks().highCentavos())
                == 1;
    }

    @Override
    public void told(BankId bank, long sequence) {
        jdbc.update(TOLD, sequence, bank.ispb(), sequence, sequence);
    }

    private static WatchedReserve watched(ResultSet row) throws SQLException {
        long sequence = row.getLong("sequence");
        Optional<WatchedReserve.Crossed> last = sequence == 0
                ? Optional.empty()
                : Optional.of(new WatchedReserve.Crossed(
                        ReserveWatch.Crossing.valueOf(row.getString("crossing")),
                        row.getLong("crossed_available"),
                        new Watermarks(row.getLong("crossed_low"), row.getLong("crossed_high"))));
        return new WatchedReserve(
                new BankId(row.getInt("ispb")),
                new Watermarks(row.getLong("low_centavos"), row.getLong("high_centavos")),
                new ReserveWatch(
                        ReserveWatch.State.valueOf(row.getString("state")),
                        row.getTimestamp("since").toInstant()),
                sequence,
                row.getLong("told"),
                last);
    }
}
