package io.pagora.local.measure;

import io.pagora.kernel.Check;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * What the stores hold on disk, read at a bench window's start and end so the growth can be said per settled
 * payment: each data directory as allocated on disk ({@code du}: Kafka's sparse, preallocated index files count for
 * what they use), PostgreSQL's tables with their indexes and TOAST, and the WAL PostgreSQL wrote (its position
 * moves by every byte of WAL; the files themselves are recycled, so their size says nothing).
 */
public final class DiskUsage {

    /** PostgreSQL's tables, indexes and TOAST, every schema of the database. */
    public static final String POSTGRESQL_TABLES = "postgresql_tables";
    /** WAL written (not at rest: recycled after checkpoints). */
    public static final String POSTGRESQL_WAL = "postgresql_wal";

    private static final long DU_TIMEOUT_SECONDS = 30;

    private final DataSource database;
    private final Map<String, Path> directories;

    /** What the stores held at one instant, in bytes, by store. */
    public record Snapshot(Map<String, Long> bytes) {

        /** Each store's growth since {@code before} per payment, the total at rest (WAL excluded) last. */
        public Map<String, Double> bytesPerPaymentSince(Snapshot before, long payments) {
            Map<String, Double> perPayment = new LinkedHashMap<>();
            if (before == null || payments <= 0) {
                return perPayment;
            }
            double atRest = 0;
            for (Map.Entry<String, Long> entry : bytes.entrySet()) {
                Long was = before.bytes().get(entry.getKey());
                if (was == null) {
                    continue;
                }
                double grown = Math.round((entry.getValue() - was) * 10.0 / payments) / 10.0;
                perPayment.put(entry.getKey(), grown);
                if (!entry.getKey().equals(POSTGRESQL_WAL)) {
                    atRest += grown;
                }
            }
            perPayment.put("at_rest_total", Math.round(atRest * 10) / 10.0);
            return perPayment;
        }
    }

    public DiskUsage(DataSource database, Map<String, Path> directories) {
        this.database = database;
        this.directories = Map.copyOf(directories);
    }

    /** {@code --data-dirs=tigerbeetle=/path,kafka=/path}: the stores measured by their directory. */
    public static Map<String, Path> directories(String spec) {
        Map<String, Path> directories = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int equals = part.indexOf('=');
            Check.that(equals > 0 && equals < part.length() - 1, "--data-dirs takes store=path pairs: %s", part);
            directories.put(
                    part.substring(0, equals).trim(),
                    Path.of(part.substring(equals + 1).trim()));
        }
        return directories;
    }

    /** Every store's size now; a store that cannot be read is left out (and so has no figure), never guessed. */
    public Snapshot snapshot() {
        Map<String, Long> bytes = new LinkedHashMap<>();
        directories.forEach((store, directory) -> {
            long allocated = allocatedBytes(directory);
            if (allocated >= 0) {
                bytes.put(store, allocated);
            }
        });
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("""
                        SELECT (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
                                JOIN pg_namespace n ON n.oid = c.relnamespace
                                WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                                  AND n.nspname NOT LIKE 'pg_toast%'),
                               pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint""")) {
            row.next();
            bytes.put(POSTGRESQL_TABLES, row.getLong(1));
            bytes.put(POSTGRESQL_WAL, row.getLong(2));
        } catch (SQLException e) {
            System.out.println(
                    "[bench] disk: PostgreSQL's sizes could not be read (" + e.getMessage() + "): no figure for them");
        }
        return new Snapshot(bytes);
    }

    /** {@code du -s -B1}: the blocks a directory's files use; -1 when it is missing or du fails. */
    public static long allocatedBytes(Path directory) {
        if (!Files.isDirectory(directory)) {
            return -1;
        }
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", directory.toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!du.waitFor(DU_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                du.destroyForcibly();
                return -1;
            }
            // du may warn about a file that vanished while it walked (Kafka deletes segments): the last line is the
            // total.
            String[] lines = out.strip().split("\n");
            String total = lines[lines.length - 1].split("\\s+")[0];
            return Long.parseLong(total);
        } catch (IOException | NumberFormatException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
