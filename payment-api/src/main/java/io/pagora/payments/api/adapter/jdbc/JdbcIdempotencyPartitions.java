package io.pagora.payments.api.adapter.jdbc;

import java.time.LocalDate;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** Skeleton (failing-first). */
public final class JdbcIdempotencyPartitions {

    public record Partition(String name, LocalDate until) {}

    public record Maintenance(List<String> created, List<String> dropped) {}

    public JdbcIdempotencyPartitions(JdbcTemplate jdbc, int retentionDays, int daysAhead) {}

    public Maintenance maintain(LocalDate today) {
        return new Maintenance(List.of(), List.of());
    }

    public List<Partition> partitions() {
        return List.of();
    }
}
