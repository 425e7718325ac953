package io.pagora.payments.api.adapter.jdbc;

import io.pagora.payments.api.application.streams.StreamPositions;
import io.pagora.settlement.domain.BankId;
import java.util.List;
import java.util.OptionalLong;
import org.springframework.jdbc.core.JdbcTemplate;

/** Acknowledged stream positions in {@code participant_stream_positions}; an update never moves one back. */
public final class JdbcStreamPositions implements StreamPositions {

    private final JdbcTemplate jdbc;

    public JdbcStreamPositions(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public OptionalLong acknowledged(BankId bank, int partition) {
        List<Long> found = jdbc.queryForList(
                "SELECT position FROM payment_api.participant_stream_positions WHERE ispb = ? AND partition = ?",
                Long.class,
                bank.ispb(),
                partition);
        return found.isEmpty() ? OptionalLong.empty() : OptionalLong.of(found.getFirst());
    }

    @Override
    public void acknowledge(BankId bank, int partition, long position) {
        jdbc.update(
                "INSERT INTO payment_api.participant_stream_positions (ispb, partition, position) VALUES (?, ?, ?)"
                        + " ON CONFLICT (ispb, partition) DO UPDATE SET position = GREATEST(participant_stream_positions.position,"
                        + " EXCLUDED.position), updated_at = now()",
                bank.ispb(),
                partition,
                position);
    }
}
