package io.pagora.ledger.adapter.tigerbeetle;

import com.tigerbeetle.AccountBatch;
import com.tigerbeetle.AccountFilter;
import com.tigerbeetle.Client;
import com.tigerbeetle.ClientClosedException;
import com.tigerbeetle.CreateAccountResultBatch;
import com.tigerbeetle.CreateTransferResultBatch;
import com.tigerbeetle.IdBatch;
import com.tigerbeetle.PacketStatus;
import com.tigerbeetle.QueryFilter;
import com.tigerbeetle.RequestException;
import com.tigerbeetle.TransferBatch;
import com.tigerbeetle.UInt128;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The ledger port on a TigerBeetle cluster (server 0.16.78, through the 0.16.30 Java client: see
 * docs/testing.md), through one shared {@link Client}.
 *
 * <p>TigerBeetle's client is built for the cluster's safety, not for a caller with a deadline, so this
 * adapter adds what a payment service needs around it:
 *
 * <ul>
 *   <li><b>A deadline we own.</b> The client never gives up on a request: it retries until the cluster
 *       answers, however long that takes. A payment request cannot wait forever, so every call waits at
 *       most {@link Config#requestTimeout()} in total (queueing included) and then fails with
 *       {@link LedgerUnavailableException}. The abandoned request may still be applied later, which is why
 *       the port demands retries with the same ids.
 *   <li><b>A bounded number of requests in flight.</b> The 0.16 client queues without limit in native
 *       memory. A permit is held from submission until TigerBeetle answers, not merely until the caller
 *       stops waiting: abandoned requests are still queued in the client and will still be sent, so they
 *       must keep counting. While the cluster is unreachable, new callers are then refused at their
 *       deadline instead of piling up more requests to replay when it returns.
 *   <li><b>Dense, explicit results.</b> TigerBeetle answers creates with only the failures; the port
 *       answers one result per input, every code mapped explicitly ({@link ResultCodes}). A reply that
 *       breaks the protocol (an index out of range or repeated, a missing code, a balance the port cannot
 *       hold) is a {@link Check.InvariantViolation}: a crash, never a success.
 * </ul>
 *
 * <p>This class is the service: the port, the deadline and the in-flight bound around the transport.
 * {@link Conversions} turns the port's records into tigerbeetle-java batches and back; {@link ResultCodes}
 * maps TigerBeetle's result codes to the port's.
 */
public final class TigerBeetleLedger implements Ledger {

    /**
     * How this adapter waits.
     *
     * @param requestTimeout the most a call waits in total, for a free slot and then for the answer;
     *     past it the call fails with {@link LedgerUnavailableException} and may or may not be applied
     * @param inFlightRequestsMax how many requests may be submitted and unanswered at once, counting the
     *     ones whose callers already gave up
     */
    public record Config(Duration requestTimeout, int inFlightRequestsMax) {

        public Config {
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
            }
            if (inFlightRequestsMax < 1) {
                throw new IllegalArgumentException("inFlightRequestsMax must be at least 1: " + inFlightRequestsMax);
            }
        }
    }

    private final Client client;
    private final Duration requestTimeout;
    private final int inFlightRequestsMax;
    private final Semaphore inFlight;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Opens a client to the cluster. Nothing is sent yet: the client connects in the background and a
     * cluster that is down shows up only as calls failing at their deadline.
     *
     * @param clusterId the cluster id the replicas were formatted with (a u128)
     * @param replicaAddresses every replica's address, comma-separated, in the cluster's order, e.g.
     *     {@code "127.0.0.1:3000"}
     */
    public TigerBeetleLedger(BigInteger clusterId, String replicaAddresses, Config config) {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(replicaAddresses, "replicaAddresses");
        Objects.requireNonNull(config, "config");
        if (clusterId.signum() < 0 || clusterId.bitLength() > 128) {
            throw new IllegalArgumentException("clusterId is a u128: " + clusterId);
        }
        String[] addresses = Arrays.stream(replicaAddresses.split(","))
                .map(String::trim)
                .filter(address -> !address.isEmpty())
                .toArray(String[]::new);
        if (addresses.length == 0) {
            throw new IllegalArgumentException("no replica addresses in \"" + replicaAddresses + "\"");
        }
        this.requestTimeout = config.requestTimeout();
        this.inFlightRequestsMax = config.inFlightRequestsMax();
        this.inFlight = new Semaphore(inFlightRequestsMax);
        this.client = new Client(UInt128.asBytes(clusterId), addresses);
    }

    public TigerBeetleLedger(long clusterId, String replicaAddresses, Config config) {
        this(BigInteger.valueOf(clusterId), replicaAddresses, config);
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        Ledger.checkBatchSize(accounts.size());
        if (accounts.isEmpty()) {
            return List.of();
        }
        AccountBatch batch = Conversions.accountBatch(accounts);
        CreateAccountResultBatch failures = call("create_accounts", () -> client.createAccountsAsync(batch));
        return ResultCodes.expandAccountResults(accounts.size(), failures);
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        Ledger.checkBatchSize(transfers.size());
        if (transfers.isEmpty()) {
            return List.of();
        }
        TransferBatch batch = Conversions.transferBatch(transfers);
        CreateTransferResultBatch failures = call("create_transfers", () -> client.createTransfersAsync(batch));
        return ResultCodes.expandTransferResults(transfers.size(), failures);
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        IdBatch request = Conversions.idBatch(ids);
        AccountBatch found = call("lookup_accounts", () -> client.lookupAccountsAsync(request));
        return Conversions.accounts(ids, found);
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        IdBatch request = Conversions.idBatch(ids);
        TransferBatch found = call("lookup_transfers", () -> client.lookupTransfersAsync(request));
        return Conversions.transfers(ids, found);
    }

    @Override
    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        Check.that(ledger != 0 && timestampAfter >= 0, "query_accounts of ledger %d after %d", ledger, timestampAfter);
        QueryFilter filter = new QueryFilter();
        filter.setLedger(ledger);
        filter.setTimestampMin(timestampAfter + 1); // inclusive in TigerBeetle
        filter.setLimit(limit);
        AccountBatch found = call("query_accounts", () -> client.queryAccountsAsync(filter));
        return Conversions.queriedAccounts(found, limit);
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        Check.that(
                !account.equals(Id128.ZERO) && timestampAfter >= 0,
                "get_account_transfers of %s after %d",
                account,
                timestampAfter);
        AccountFilter filter = new AccountFilter();
        filter.setAccountId(account.lo(), account.hi());
        filter.setTimestampMin(timestampAfter + 1); // inclusive in TigerBeetle
        filter.setLimit(limit);
        filter.setDebits(sides != Sides.CREDITS);
        filter.setCredits(sides != Sides.DEBITS);
        TransferBatch found = call("get_account_transfers", () -> client.getAccountTransfersAsync(filter));
        return Conversions.accountTransfers(found, limit);
    }

    @Override
    public String backendName() {
        return "tigerbeetle";
    }

    /** Closes the client; requests still in flight complete with {@link LedgerUnavailableException}. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            client.close();
        }
    }

    /**
     * Sends one request and waits for its answer, all within {@code requestTimeout}.
     *
     * <p>The permit is released when TigerBeetle answers (or the client is closed), not when we stop
     * waiting: see the class comment for why abandoned requests keep their slot.
     */
    private <T> T call(String operation, Supplier<CompletableFuture<T>> send) {
        long deadlineNanos = System.nanoTime() + requestTimeout.toNanos();
        try {
            if (!inFlight.tryAcquire(requestTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new LedgerUnavailableException(operation + ": " + inFlightRequestsMax
                        + " requests still in flight after waiting " + requestTimeout
                        + "; nothing was sent, retry with the same ids");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException(
                    operation + ": interrupted while waiting to send; nothing was sent", e);
        }

        CompletableFuture<T> answer;
        boolean submitted = false;
        try {
            answer = send.get();
            submitted = true;
        } catch (ClientClosedException e) {
            throw new LedgerUnavailableException(operation + ": the TigerBeetle client is closed; nothing was sent", e);
        } catch (RequestException e) {
            throw rejected(operation, e);
        } finally {
            if (!submitted) {
                inFlight.release();
            }
        }
        answer.whenComplete((result, failure) -> inFlight.release());

        try {
            long remainingNanos = Math.max(0, deadlineNanos - System.nanoTime());
            return answer.get(remainingNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new LedgerUnavailableException(
                    operation + ": no answer from TigerBeetle within " + requestTimeout
                            + "; it may or may not have been applied, retry with the same ids",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException(
                    operation
                            + ": interrupted while waiting for TigerBeetle; it may or may not have been applied, retry with the same ids",
                    e);
        } catch (ExecutionException e) {
            throw failed(operation, e.getCause() != null ? e.getCause() : e);
        }
    }

    /**
     * Why a submitted request failed. An {@link Error} here is the TigerBeetle client's own assertion
     * about the reply (e.g. a wrong result length): a broken protocol must crash, not invite a retry.
     */
    private static RuntimeException failed(String operation, Throwable cause) {
        if (cause instanceof Error) {
            Check.InvariantViolation violation =
                    new Check.InvariantViolation(operation + ": TigerBeetle's client broke an invariant: " + cause);
            violation.initCause(cause);
            return violation;
        }
        if (cause instanceof RequestException rejection) {
            return rejected(operation, rejection);
        }
        if (cause instanceof IllegalStateException) {
            // ClientClosedException, or the client's "Client is closed" for requests cut off by close().
            return new LedgerUnavailableException(
                    operation
                            + ": the TigerBeetle client was closed; it may or may not have been applied, retry with the same ids",
                    cause);
        }
        return new LedgerUnavailableException(
                operation + ": TigerBeetle request failed (" + cause
                        + "); it may or may not have been applied, retry with the same ids",
                cause);
    }

    /**
     * TigerBeetle's client refused a request. Only an evicted session can leave it applied; the other
     * statuses are decided by the client before sending. {@code TooMuchData} for a batch within
     * {@link Ledger#BATCH_SIZE_MAX} means the cluster runs with a smaller request limit than production
     * (e.g. {@code --development} without {@code --limit-request=1MiB}): retries will not help, so say so.
     */
    private static LedgerUnavailableException rejected(String operation, RequestException rejection) {
        PacketStatus status = PacketStatus.fromValue(rejection.getStatus());
        String outcome = switch (status) {
            case ClientEvicted ->
                "the client session was evicted; it may or may not have been applied, retry with the same ids";
            case TooMuchData ->
                "the cluster's request limit is below " + Ledger.BATCH_SIZE_MAX
                        + " events (started with --development and without --limit-request=1MiB?); nothing was applied";
            default -> "nothing was applied";
        };
        return new LedgerUnavailableException(
                operation + ": TigerBeetle's client rejected the request with " + status + " (" + rejection.getMessage()
                        + "); " + outcome,
                rejection);
    }
}
