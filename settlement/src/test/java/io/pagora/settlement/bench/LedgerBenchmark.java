package io.pagora.settlement.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.TigerBeetleVersion;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Settles N payments (pending chain, then post chain) through the ledger port at several request
 * sizes and prints payments/s and transfers/s per backend. A main class, not a test: numbers are
 * measured and reported, never asserted.
 *
 * <pre>
 *   ./mvnw -q -pl settlement -am install -DskipTests; ./mvnw -q -pl settlement test-compile exec:java -Dexec.classpathScope=test \
 *       -Dexec.mainClass=io.pagora.settlement.bench.LedgerBenchmark -Dexec.args="--payments=20000"
 * </pre>
 *
 * Options: {@code --payments=N} (per request size, default 20000), {@code --small-payments=N} (for
 * request size 1, default 1000), {@code --sizes=1,64,1024,8189}, {@code --backends=postgresql,tigerbeetle},
 * {@code --jdbc-url=… --jdbc-user=… --jdbc-password=…} (else an embedded PostgreSQL with durable
 * settings: fsync on, synchronous_commit on), {@code --tigerbeetle-address=HOST:PORT} (else one
 * started from {@code $TIGERBEETLE_BIN}).
 *
 * <p>Request size 1 cannot hold a three-leg chain, so it settles on-us payments (one leg); the other
 * sizes settle interbank payments (three legs), as many whole chains as fit.
 */
public final class LedgerBenchmark {

    private static final int BANKS = 8;
    private static final int CUSTOMERS_PER_BANK = 500;
    private static final long FUNDING_CENTAVOS = 1_000_000_000_000L;

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int payments = Integer.parseInt(options.getOrDefault("payments", "20000"));
        int smallPayments = Integer.parseInt(options.getOrDefault("small-payments", "1000"));
        List<Integer> sizes = List.of(
                        options.getOrDefault("sizes", "1,64,1024,8189").split(","))
                .stream()
                .map(Integer::parseInt)
                .toList();
        List<String> backends = List.of(
                options.getOrDefault("backends", "postgresql,tigerbeetle").split(","));

        System.out.printf(
                Locale.ROOT,
                "Pagora ledger benchmark: %d payments per size (%d at size 1), %d banks x %d customers, %d cores%n",
                payments,
                smallPayments,
                BANKS,
                CUSTOMERS_PER_BANK,
                Runtime.getRuntime().availableProcessors());
        for (String backend : backends) {
            try (BackendHandle handle = open(backend, options)) {
                if (handle == null) {
                    continue;
                }
                System.out.printf("%n== %s (%s)%n", backend, handle.description);
                run(handle.ledger, sizes, payments, smallPayments);
            }
        }
    }

    private static void run(Ledger ledger, List<Integer> sizes, int payments, int smallPayments) {
        List<Id128>[] customers = setUp(ledger);
        System.out.printf(
                "%-10s %-10s %10s %12s %14s %14s%n",
                "request", "payments", "legs", "seconds", "payments/s", "transfers/s");
        for (int size : sizes) {
            boolean onUs = size < 3;
            int count = size == 1 ? smallPayments : payments;
            int legs = onUs ? 1 : 3;
            int paymentsPerRequest = Math.max(1, size / legs);
            List<Payment> all = payments(customers, count, onUs, size);
            Settlement settlement = new Settlement(ledger, 60);
            long startNs = System.nanoTime();
            for (int from = 0; from < all.size(); from += paymentsPerRequest) {
                List<Payment> request = all.subList(from, Math.min(all.size(), from + paymentsPerRequest));
                for (ReservationOutcome outcome : settlement.reserve(request)) {
                    Check.that(
                            outcome instanceof ReservationOutcome.Reserved, "benchmark payment reserved: %s", outcome);
                }
                for (ResolutionOutcome outcome : settlement.post(request)) {
                    Check.that(outcome instanceof ResolutionOutcome.Posted, "benchmark payment posted: %s", outcome);
                }
            }
            double seconds = (System.nanoTime() - startNs) / 1e9;
            long transfers = 2L * legs * count;
            System.out.printf(
                    Locale.ROOT,
                    "%-10d %-10d %10d %12.2f %14.0f %14.0f%n",
                    size,
                    count,
                    legs,
                    seconds,
                    count / seconds,
                    transfers / seconds);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Id128>[] setUp(Ledger ledger) {
        Participants participants = new Participants(ledger);
        TimeOrderedIds ids = new TimeOrderedIds();
        check(participants.openCentralBank());
        List<Id128>[] customers = new List[BANKS];
        for (int b = 0; b < BANKS; b++) {
            BankId bank = new BankId(10_000_000 + b);
            participants.registerBank(bank).forEach(LedgerBenchmark::check);
            checkTransfer(participants.fundReserve(ids.next(), bank, FUNDING_CENTAVOS));
            List<Long> numbers = new ArrayList<>();
            for (long n = 1; n <= CUSTOMERS_PER_BANK; n++) {
                numbers.add(n);
            }
            participants.openCustomers(bank, numbers).forEach(LedgerBenchmark::check);
            customers[b] = new ArrayList<>();
            for (long n : numbers) {
                Id128 customer = ChartOfAccounts.customer(bank, n);
                customers[b].add(customer);
                checkTransfer(participants.fundCustomer(ids.next(), customer, FUNDING_CENTAVOS / CUSTOMERS_PER_BANK));
            }
        }
        return customers;
    }

    private static List<Payment> payments(List<Id128>[] customers, int count, boolean onUs, long seed) {
        Random random = new Random(seed);
        TimeOrderedIds ids = new TimeOrderedIds();
        List<Payment> payments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int payerBank = random.nextInt(BANKS);
            int payeeBank = onUs ? payerBank : (payerBank + 1 + random.nextInt(BANKS - 1)) % BANKS;
            Id128 payer = customers[payerBank].get(random.nextInt(CUSTOMERS_PER_BANK));
            Id128 payee;
            do {
                payee = customers[payeeBank].get(random.nextInt(CUSTOMERS_PER_BANK));
            } while (payee.equals(payer));
            payments.add(new Payment(ids.nextPaymentId(), payer, payee, 1 + random.nextInt(10_000)));
        }
        return payments;
    }

    private static void check(AccountResult result) {
        Check.that(
                result == AccountResult.OK || result == AccountResult.EXISTS, "benchmark account created: %s", result);
    }

    private static void checkTransfer(TransferResult result) {
        Check.that(result == TransferResult.OK, "benchmark funding: %s", result);
    }

    private record BackendHandle(Ledger ledger, String description, AutoCloseable resources) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            ledger.close();
            resources.close();
        }
    }

    private static BackendHandle open(String backend, Map<String, String> options) throws Exception {
        return switch (backend) {
            case "postgresql" -> openPostgres(options);
            case "tigerbeetle" -> TigerBeetleBackend.open(options.get("tigerbeetle-address"));
            default -> throw new IllegalArgumentException("unknown backend " + backend);
        };
    }

    private static BackendHandle openPostgres(Map<String, String> options) throws Exception {
        String url = options.get("jdbc-url");
        EmbeddedPostgres embedded = null;
        String description;
        if (url == null) {
            // Durable settings: a benchmark with fsync off would measure a ledger nobody should run.
            embedded = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("shared_buffers", "512MB")
                    .setServerConfig("max_wal_size", "4GB")
                    .start();
            url = embedded.getJdbcUrl("postgres", "postgres");
            description = "embedded PostgreSQL, fsync=on, synchronous_commit=on";
        } else {
            description = url;
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(options.getOrDefault("jdbc-user", "postgres"));
        config.setPassword(options.getOrDefault("jdbc-password", "postgres"));
        config.setMaximumPoolSize(4);
        HikariDataSource dataSource = new HikariDataSource(config);
        EmbeddedPostgres server = embedded;
        PostgresLedger ledger = PostgresLedger.migrateAndOpen(dataSource);
        try (var connection = dataSource.getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT version()")) {
            rows.next();
            description += "; " + rows.getString(1).split(",")[0];
        }
        return new BackendHandle(ledger, description, () -> {
            dataSource.close();
            if (server != null) {
                server.close();
            }
        });
    }

    /**
     * TigerBeetle for the benchmark: an address given, or a server formatted and started from
     * {@code $TIGERBEETLE_BIN} in production mode (no {@code --development}: Direct IO, full caches),
     * as TigerBeetle's own benchmark runs it.
     */
    static final class TigerBeetleBackend {
        static BackendHandle open(String address) throws Exception {
            String binary = System.getenv("TIGERBEETLE_BIN");
            if (address != null) {
                return new BackendHandle(tigerBeetle(address), "TigerBeetle at " + address, () -> {});
            }
            if (binary == null || binary.isBlank()) {
                System.out.printf("%n== tigerbeetle: skipped (no --tigerbeetle-address and no TIGERBEETLE_BIN)%n");
                return null;
            }
            TigerBeetleVersion version =
                    TigerBeetleVersion.requirePinned(java.nio.file.Path.of(binary), "LedgerBenchmark");
            java.nio.file.Path directory = java.nio.file.Files.createTempDirectory("pagora-bench-tb");
            java.nio.file.Path data = directory.resolve("0_0.tigerbeetle");
            run(
                    new ProcessBuilder(
                            binary, "format", "--cluster=0", "--replica=0", "--replica-count=1", data.toString()),
                    directory.resolve("format.log"));
            int port;
            try (java.net.ServerSocket socket =
                    new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Process server = new ProcessBuilder(binary, "start", "--addresses=127.0.0.1:" + port, data.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("server.log").toFile())
                    .start();
            waitForPort(port, server);
            String at = "127.0.0.1:" + port;
            return new BackendHandle(
                    tigerBeetle(at),
                    "TigerBeetle " + version + " from $TIGERBEETLE_BIN at " + at + ", production mode",
                    () -> {
                        server.destroy();
                        server.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                        try (var files = java.nio.file.Files.walk(directory)) {
                            files.sorted(java.util.Comparator.reverseOrder())
                                    .forEach(path -> path.toFile().delete());
                        }
                    });
        }

        private static Ledger tigerBeetle(String address) {
            return new io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger(
                    0L,
                    address,
                    new io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger.Config(
                            java.time.Duration.ofSeconds(60), 64));
        }

        private static void run(ProcessBuilder builder, java.nio.file.Path log) throws Exception {
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Check.that(
                    process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) && process.exitValue() == 0,
                    "tigerbeetle format failed; see %s",
                    log);
        }

        private static void waitForPort(int port, Process server) throws Exception {
            long deadlineNs = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadlineNs) {
                Check.that(server.isAlive(), "tigerbeetle exited during start");
                try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                    return;
                } catch (java.io.IOException notYet) {
                    Thread.sleep(100);
                }
            }
            throw new IllegalStateException("tigerbeetle did not listen on " + port + " within 60 s");
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new TreeMap<>();
        for (String arg : args) {
            for (String part : arg.trim().split("\\s+")) {
                if (part.startsWith("--") && part.contains("=")) {
                    options.put(part.substring(2, part.indexOf('=')), part.substring(part.indexOf('=') + 1));
                } else if (!part.isBlank()) {
                    throw new IllegalArgumentException("options are --name=value: " + part);
                }
            }
        }
        return options;
    }
}
