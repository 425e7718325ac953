package io.pagora.local.launcher;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The launcher's knobs: environment variables, each with its default in {@link #DEFAULTS} (the one copy;
 * {@code infra/local/pagora help} and docs/operations.md say what each does). A value that does not parse
 * is refused with the variable's name, before anything starts. Commands that run the platform differently
 * (bench, chaos) derive their settings with {@link #with}, never by editing the environment.
 */
public final class Settings {

    static final Map<String, String> DEFAULTS = defaults();

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

    private final Map<String, String> values;

    private Settings(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    public static Settings fromEnvironment(Map<String, String> environment) {
        Map<String, String> values = new HashMap<>(DEFAULTS);
        environment.forEach((name, value) -> {
            if (!value.isEmpty()) {
                values.put(name, value);
            }
        });
        return new Settings(values);
    }

    public Settings with(String name, String value) {
        Map<String, String> changed = new HashMap<>(values);
        changed.put(name, value);
        return new Settings(changed);
    }

    public Settings without(String name) {
        Map<String, String> changed = new HashMap<>(values);
        changed.remove(name);
        return new Settings(changed);
    }

    public String text(String name) {
        String value = values.get(name);
        if (value == null) {
            throw Console.fail("%s is not set", name);
        }
        return value;
    }

    public Optional<String> optional(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** 1 or true: on; unset, 0 or false: off; anything else is refused. */
    public boolean flag(String name) {
        String value = values.getOrDefault(name, "false");
        return switch (value) {
            case "1", "true" -> true;
            case "0", "false" -> false;
            default -> throw Console.fail("%s=%s: expected 1, true, 0 or false", name, value);
        };
    }

    public long number(String name) {
        long number = parsed(name, "a whole number >= 0", Long::parseLong);
        if (number < 0) {
            throw Console.fail("%s=%s: expected a whole number >= 0", name, text(name));
        }
        return number;
    }

    public int integer(String name) {
        long number = number(name);
        if (number > Integer.MAX_VALUE) {
            throw Console.fail("%s=%d: too large", name, number);
        }
        return (int) number;
    }

    /** A share between 0 and 1 (a rate of refusals, duplicates, ...). */
    public double share(String name) {
        double share = parsed(name, "a share between 0 and 1", Double::parseDouble);
        if (!(share >= 0 && share <= 1)) {
            throw Console.fail("%s=%s: expected a share between 0 and 1", name, text(name));
        }
        return share;
    }

    private <T> T parsed(String name, String expected, java.util.function.Function<String, T> parser) {
        String value = text(name);
        try {
            return parser.apply(value);
        } catch (NumberFormatException notNumber) {
            throw Console.fail("%s=%s: expected %s", name, value, expected);
        }
    }

    /** A duration as the services read it: 250ms, 5s, 2m. */
    Duration duration(String name) {
        String value = text(name);
        Matcher matcher = DURATION.matcher(value);
        if (!matcher.matches()) {
            throw Console.fail("%s=%s: expected a duration such as 250ms, 5s or 2m", name, value);
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    /** Every knob with a default is read once, so a bad value stops the launcher before anything starts. */
    /** payment-api's and reporting-service's server.tomcat.max-connections (service-support's pagora-tls.yaml). */
    static final int SERVICE_CONNECTIONS_MAX = 1024;

    static final int SIMULATOR_CONNECTIONS_PER_BANK = 17;
    /** The launcher's own calls (seeding, answers, the verifier) and Prometheus: a few at a time. */
    static final int LAUNCHER_CONNECTIONS_MAX = 32;

    void validate() {
        String banks = text("RECEIVING_BANKS");
        if (!banks.equals("participants") && !banks.equals("simulated")) {
            throw Console.fail(
                    "RECEIVING_BANKS is participants (the bank simulator, over the banks' streams) or simulated"
                            + " (clearing's in-process simulator), not %s",
                    banks);
        }
        connectionsFit();
        for (String name : DEFAULTS.keySet()) {
            String fallback = DEFAULTS.get(name);
            if (fallback.matches("\\d+")) {
                number(name);
            } else if (fallback.matches("\\d+(ms|s|m)")) {
                duration(name);
            } else if (fallback.matches("0?\\.\\d+|1\\.0")) {
                share(name);
            } else if (fallback.equals("true") || fallback.equals("false")) {
                flag(name);
            }
        }
    }

    /**
     * payment-api holds at most {@value #SERVICE_CONNECTIONS_MAX} connections (pagora-tls.yaml); one more waits in the
     * accept queue, and every answer behind it with it. k6 is one bank with a connection per VU; each seeded bank the
     * simulator acts for opens up to {@value #SIMULATOR_CONNECTIONS_PER_BANK} (its stream reader and its answering
     * calls, bank-simulator's SimulatedBank.SENDERS + 1). Both must fit, with the launcher's own calls beside them.
     */
    private void connectionsFit() {
        int perParticipant = integer("PARTICIPANT_CONNECTIONS_MAX");
        int banks = integer("BANKS") * SIMULATOR_CONNECTIONS_PER_BANK + LAUNCHER_CONNECTIONS_MAX;
        if (perParticipant + banks > SERVICE_CONNECTIONS_MAX) {
            throw Console.fail(
                    "PARTICIPANT_CONNECTIONS_MAX (%d) leaves the seeded banks and the launcher less than the %d"
                            + " connections they may open below payment-api's max-connections (%d)",
                    perParticipant, banks, SERVICE_CONNECTIONS_MAX);
        }
    }

    /**
     * k6 is one bank (the first seeded), which the bank simulator also acts for: a connection past that bank's bound
     * is refused 429 participant-connections-limited (seen: 134 of a demo's payments, with k6 at the bound).
     */
    public void k6Fits() {
        int vus = integer("K6_MAX_VUS");
        int perParticipant = integer("PARTICIPANT_CONNECTIONS_MAX");
        if (vus + SIMULATOR_CONNECTIONS_PER_BANK > perParticipant) {
            throw Console.fail(
                    "K6_MAX_VUS (%d) and the bank simulator's %d connections for the same bank are above"
                            + " PARTICIPANT_CONNECTIONS_MAX (%d): k6 opens a connection per VU, and those past the bound would be"
                            + " refused",
                    vus, SIMULATOR_CONNECTIONS_PER_BANK, perParticipant);
        }
    }

    private static Map<String, String> defaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        // The demo's k6 load (k6/pagora.js, SCENARIO=load).
        defaults.put("PAYMENTS", "5000");
        defaults.put("RATE", "200");
        // demo --scale: three brokers, three replicas and two of each service share the machine; on 2 cores 200/s
        // overloads it, 100/s leaves it room.
        defaults.put("SCALED_RATE", "100");
        defaults.put("DUP_SHARE", "0.02");
        defaults.put("CONFLICT_SHARE", "0.005");
        defaults.put("NSF_SHARE", "0.01");
        // Payments whose payee is named by its PIX key, or by a static BR Code of it, each after a look-up
        // (docs/directory.md); the rest by account.
        defaults.put("KEY_SHARE", "0.2");
        defaults.put("QR_SHARE", "0.05");
        // The demo runs on a just-started (cold) platform, often on a laptop: its latency thresholds are loose;
        // k6/pagora.js's own defaults (250/500 ms) are the SLO for a warmed-up platform.
        defaults.put("ACCEPT_P95_MS", "2000");
        defaults.put("ACCEPT_P99_MS", "5000");
        defaults.put("ERROR_RATE_MAX", "0.01");
        // Just-started JVMs compile their code under the load: on a slow 2-core machine the thresholds hold reliably
        // only after a 90 s warm-up.
        defaults.put("WARMUP_SECONDS", "90");
        // k6's VUs (a connection each, all as one bank) plus the bank simulator's connections for that bank stay below
        // PARTICIPANT_CONNECTIONS_MAX, which leaves the seeded banks' own connections room below payment-api's
        // max-connections (1,024).
        defaults.put("K6_MAX_VUS", "750");
        // The seeded participants and their money (centavos).
        defaults.put("BANKS", "4");
        defaults.put("CUSTOMERS_PER_BANK", "50");
        defaults.put("RESERVE_FUNDING", "100000000");
        defaults.put("LAST_RESERVE_FUNDING", "20000");
        defaults.put("CUSTOMER_FUNDING", "500000");
        defaults.put("POOR_CUSTOMERS", "3");
        // Who answers for the receiving banks: "participants" (the bank simulator process, over the banks' streams;
        // docs/participants.md) or "simulated" (clearing's in-process simulator, answering within the poll: no bank
        // takes part; kept to compare against, and what --plain-http runs).
        defaults.put("RECEIVING_BANKS", "participants");
        // The receiving banks' behaviour (the simulator's, either kind) and the pending legs' timeout.
        defaults.put("PENDING_TIMEOUT", "5s");
        defaults.put("BANK_ACCEPT_RATE", "0.9");
        defaults.put("BANK_NO_ANSWER_RATE", "0.04");
        defaults.put("BANK_ANSWER_LATENCY", "2ms");
        // Of the payments settled to a participant bank, the share it returns (a devolução, docs/returns.md): the
        // demo's, the chaos runs' and the bench's load includes returns (participants only: the in-process bank has
        // no stream to be paid on, and returns nothing).
        defaults.put("RETURN_RATE", "0.01");
        // Of the payments a participant bank's customers made and that settled, the share it reports as fraud (an
        // infraction report, docs/med.md); a bank that reports also analyses the reports against its customers,
        // accepting MED_REPORT_ACCEPT_RATE of them. None by default: the demo files its own traced report, and an
        // accepted report holds its money for days. The bench's MED pair sets 0.001.
        defaults.put("MED_REPORT_RATE", "0.0");
        defaults.put("MED_REPORT_ACCEPT_RATE", "0.9");
        defaults.put("FINAL_WAIT_SECONDS", "120");
        defaults.put("HEALTH_WAIT_SECONDS", "180");
        // payment-api's per-participant limits, above PIX's 3,750 / 750/s: the bench sends thousands per second
        // per bank. bench --overload sets PIX's figures.
        defaults.put("PARTICIPANT_BURST", "50000");
        defaults.put("PARTICIPANT_REFILL_PER_SECOND", "25000");
        defaults.put("PARTICIPANT_IN_FLIGHT_MAX", "256");
        // Each bank's look-up bucket (docs/directory.md): DICT's category A, 50,000 tokens and 25,000 a minute.
        defaults.put("DIRECTORY_PARTICIPANT_BURST", "50000");
        defaults.put("DIRECTORY_PARTICIPANT_REFILL_PER_MINUTE", "25000");
        // k6 opens a connection per VU (up to K6_MAX_VUS), all as one bank.
        defaults.put("PARTICIPANT_CONNECTIONS_MAX", "800");
        defaults.put("VERIFY_IN_FLIGHT_SECONDS", "60");
        defaults.put("VERIFY_ACCOUNT_PAGES_MAX", "128");
        defaults.put("RECONCILIATION", "true");
        defaults.put("RECONCILIATION_FINAL_WITHIN", "60s");
        // The bench measures the settlement path: every receiving bank answers and accepts.
        defaults.put("BENCH_BANK_ACCEPT_RATE", "1.0");
        defaults.put("BENCH_BANK_NO_ANSWER_RATE", "0");
        // A fixed heap (no resizing work). G1: under thousands of concurrent single requests the Parallel
        // collector runs back-to-back full collections.
        defaults.put("SERVICE_JVM_OPTS", "-Xms768m -Xmx768m");
        // JDK 25's AOT cache for each service, trained by the launcher once per build (AotCache).
        defaults.put("AOT_CACHE", "true");
        // Durability untouched (fsync, synchronous_commit, full_page_writes on): checkpoints far apart (the bench
        // forces
        // one inside its window instead, so its figures include one), and a buffer cache that holds the hot tables.
        defaults.put(
                "PG_TUNING",
                "-c shared_buffers=512MB -c max_wal_size=8GB -c min_wal_size=1GB"
                        + " -c checkpoint_timeout=30min -c wal_buffers=16MB");
        // TigerBeetle's grid cache for a small machine shared with six other processes (its default is 1 GiB).
        defaults.put("TB_CACHE_GRID", "256MiB");
        defaults.put("LOG_LINES", "15");
        // The fault catalogue (docs/faults.md).
        defaults.put("CHAOS_RATE", "200");
        defaults.put("CHAOS_BEFORE_SECONDS", "15");
        defaults.put("CHAOS_AFTER_SECONDS", "15");
        defaults.put("CHAOS_LEDGER_DOWN_SECONDS", "30");
        defaults.put("CHAOS_SLOW_BANK_SECONDS", "20");
        defaults.put("CHAOS_BANK_DOWN_SECONDS", "20");
        defaults.put("CHAOS_PENDING_TIMEOUT", "2s");
        // MED under every fault: reports, holds, analyses and refunds in flight when it strikes (docs/med.md).
        defaults.put("CHAOS_MED_REPORT_RATE", "0.005");
        defaults.put("CHAOS_SLOW_BANK_LATENCY", "4s");
        defaults.put("CHAOS_FINAL_WAIT_SECONDS", "180");
        defaults.put("CHAOS_WARMUP_SECONDS", "30");
        defaults.put("CHAOS_FINAL_WITHIN_SECONDS", "20");
        defaults.put("CHAOS_KAFKA_OUTAGE_SECONDS", "40");
        // chaos --scale: how long a killed broker, replica or service instance stays down before it is started again.
        defaults.put("CHAOS_NODE_DOWN_SECONDS", "20");
        // chaos --scale's load: as demo --scale's, half the single platform's (SCALED_RATE).
        defaults.put("CHAOS_SCALED_RATE", "100");
        defaults.put("CHAOS_RESERVE_FUNDING", "5000000000");
        return Collections.unmodifiableMap(defaults);
    }

    /** The ISPB of seeded bank number 1..banks: the one copy of this formula. */
    public static List<Long> seededIspbs(int banks) {
        List<Long> ispbs = new ArrayList<>();
        for (int bank = 1; bank <= banks; bank++) {
            ispbs.add(10_000_000L + bank * 1111L);
        }
        return ispbs;
    }
}
