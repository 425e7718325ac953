package io.pagora.service.ledger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.BatchTooLargeException;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.service.metrics.LatencyHistograms;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The {@link Ledger} port, metered: a decorator that every service wraps around the backend it opened,
 * so both backends are measured the same way and the domain stays free of Micrometer.
 *
 * <ul>
 *   <li>{@value #REQUEST} (timer; tags {@code operation}, {@code backend}): every call, failed ones included;
 *   <li>{@value #REQUEST_TRANSFERS} (distribution summary; tag {@code operation}): the events in one request —
 *       how full the batches are (buckets 1, 3, 64, 256, 1024, 4096, 8189; 8189 is a full request);
 *   <li>{@value #RESULTS} (counter; tags {@code operation}, {@code code}): one per event, by result code in
 *       lower case ({@code ok}, {@code exists}, {@code exceeds_credits}, …); lookups count {@code found} and
 *       {@code not_found}; a request that failed as a whole counts each of its events as {@code unavailable}
 *       (the ledger did not answer in time: {@link LedgerUnavailableException}), {@code batch_too_large} or
 *       {@code error}.
 * </ul>
 * Tag values come from closed sets (five operations, two backends, the result enums): never an id.
 */
public final class MeteredLedger extends ForwardingLedger {

    public static final String REQUEST = "pagora.ledger.request";
    public static final String REQUEST_TRANSFERS = "pagora.ledger.request.transfers";
    public static final String RESULTS = "pagora.ledger.results";

    /** Batch-fill buckets: a single event, one interbank chain (3 legs), then up to a full request. */
    static final double[] FILL_BUCKETS = {1, 3, 64, 256, 1024, 4096, BATCH_SIZE_MAX};

    enum Operation {
        CREATE_ACCOUNTS,
        CREATE_TRANSFERS,
        LOOKUP_ACCOUNTS,
        LOOKUP_TRANSFERS,
        QUERY_ACCOUNTS,
        GET_ACCOUNT_TRANSFERS;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    private final MeterRegistry registry;
    private final Map<Operation, Timer> timers = new EnumMap<>(Operation.class);
    private final Map<Operation, DistributionSummary> fills = new EnumMap<>(Operation.class);
    /** Result counters are created on first use: only codes that happen become series. */
    private final Map<String, Counter> results = new ConcurrentHashMap<>();

    public MeteredLedger(Ledger delegate, MeterRegistry registry) {
        super(delegate);
        this.registry = Objects.requireNonNull(registry, "registry");
        String backend = delegate.backendName();
        for (Operation operation : Operation.values()) {
            timers.put(
                    operation,
                    LatencyHistograms.timer(REQUEST, "One request to the ledger, failed ones included")
                            .tag("operation", operation.tag)
                            .tag("backend", backend)
                            .register(registry));
            fills.put(
                    operation,
                    DistributionSummary.builder(REQUEST_TRANSFERS)
                            .description(
                                    "Events (transfers, accounts or ids) in one ledger request; 8189 is a full request")
                            .tag("operation", operation.tag)
                            .serviceLevelObjectives(FILL_BUCKETS)
                            .register(registry));
        }
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        List<AccountResult> answer =
                call(Operation.CREATE_ACCOUNTS, accounts.size(), () -> delegate.createAccounts(accounts));
        countCodes(Operation.CREATE_ACCOUNTS, AccountResult.class, answer);
        return answer;
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        List<TransferResult> answer =
                call(Operation.CREATE_TRANSFERS, transfers.size(), () -> delegate.createTransfers(transfers));
        countCodes(Operation.CREATE_TRANSFERS, TransferResult.class, answer);
        return answer;
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        List<Account> found = call(Operation.LOOKUP_ACCOUNTS, ids.size(), () -> delegate.lookupAccounts(ids));
        countFound(Operation.LOOKUP_ACCOUNTS, ids.size(), found.size());
        return found;
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        List<Transfer> found = call(Operation.LOOKUP_TRANSFERS, ids.size(), () -> delegate.lookupTransfers(ids));
        countFound(Operation.LOOKUP_TRANSFERS, ids.size(), found.size());
        return found;
    }

    @Override
    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        return call(Operation.QUERY_ACCOUNTS, limit, () -> delegate.queryAccounts(ledger, timestampAfter, limit));
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        return call(
                Operation.GET_ACCOUNT_TRANSFERS,
                limit,
                () -> delegate.accountTransfers(account, sides, timestampAfter, limit));
    }

    private <T> T call(Operation operation, int events, Supplier<T> request) {
        fills.get(operation).record(events);
        long started = System.nanoTime();
        try {
            return request.get();
        } catch (LedgerUnavailableException e) {
            count(operation, "unavailable", events);
            throw e;
        } catch (BatchTooLargeException e) {
            count(operation, "batch_too_large", events);
            throw e;
        } catch (RuntimeException | Error e) {
            count(operation, "error", events);
            throw e;
        } finally {
            timers.get(operation).record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /** One increment per distinct code of the request (a full request has 8189 results, mostly one code). */
    private <E extends Enum<E>> void countCodes(Operation operation, Class<E> codes, List<E> answer) {
        int[] perCode = new int[codes.getEnumConstants().length];
        for (E code : answer) {
            perCode[code.ordinal()]++;
        }
        E[] constants = codes.getEnumConstants();
        for (int ordinal = 0; ordinal < perCode.length; ordinal++) {
            if (perCode[ordinal] > 0) {
                count(operation, constants[ordinal].name().toLowerCase(Locale.ROOT), perCode[ordinal]);
            }
        }
    }

    private void countFound(Operation operation, int asked, int found) {
        if (found > 0) {
            count(operation, "found", found);
        }
        if (asked > found) {
            count(operation, "not_found", asked - found);
        }
    }

    private void count(Operation operation, String code, int events) {
        if (events <= 0) {
            return;
        }
        results.computeIfAbsent(
                        operation.tag + '/' + code,
                        key -> Counter.builder(RESULTS)
                                .description("Ledger results, one per event, by result code (lower case)")
                                .tag("operation", operation.tag)
                                .tag("code", code)
                                .register(registry))
                .increment(events);
    }
}
