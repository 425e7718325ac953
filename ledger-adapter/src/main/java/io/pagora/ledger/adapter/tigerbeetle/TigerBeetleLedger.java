package io.pagora.ledger.adapter.tigerbeetle;

import com.tigerbeetle.AccountBatch;
import com.tigerbeetle.Client;
import com.tigerbeetle.ClientClosedException;
import com.tigerbeetle.CreateAccountResult;
import com.tigerbeetle.CreateAccountResultBatch;
import com.tigerbeetle.CreateTransferResult;
import com.tigerbeetle.CreateTransferResultBatch;
import com.tigerbeetle.IdBatch;
import com.tigerbeetle.PacketStatus;
import com.tigerbeetle.RequestException;
import com.tigerbeetle.TransferBatch;
import com.tigerbeetle.UInt128;
import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountResult;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.LedgerUnavailableException;
import io.pagora.ledger.domain.NewAccount;
import io.pagora.ledger.domain.NewTransfer;
import io.pagora.ledger.domain.Transfer;
import io.pagora.ledger.domain.TransferResult;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The ledger port on a TigerBeetle cluster (server 0.16.78, through the 0.16.30 Java client: see the
 * README), through one shared {@link Client}.
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
 *   <li><b>Dense, explicit results.</b> TigerBeetle answers creates with only the failures, each with its
 *       index. The port answers one result per input, so unlisted indexes are {@code OK}; every TigerBeetle
 *       code is mapped by an exhaustive {@code switch} with no default, so a code added by a client upgrade
 *       fails compilation instead of being read as something else. A reply that breaks the protocol
 *       (an index out of range or repeated, a missing code, a balance the port cannot hold) is a
 *       {@link Check.InvariantViolation}: a crash, never a success.
 * </ul>
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
        AccountBatch batch = new AccountBatch(accounts.size());
        for (NewAccount account : accounts) {
            batch.add();
            batch.setId(account.id().lo(), account.id().hi());
            batch.setUserData128(account.userData128().lo(), account.userData128().hi());
            batch.setUserData64(account.userData64());
            batch.setUserData32(account.userData32());
            batch.setLedger(account.ledger());
            batch.setCode(account.code());
            batch.setFlags(account.flags());
        }
        CreateAccountResultBatch failures = call("create_accounts", () -> client.createAccountsAsync(batch));
        return expandAccountResults(accounts.size(), failures);
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        Ledger.checkBatchSize(transfers.size());
        if (transfers.isEmpty()) {
            return List.of();
        }
        TransferBatch batch = new TransferBatch(transfers.size());
        for (NewTransfer transfer : transfers) {
            batch.add();
            batch.setId(transfer.id().lo(), transfer.id().hi());
            batch.setDebitAccountId(transfer.debitAccountId().lo(), transfer.debitAccountId().hi());
            batch.setCreditAccountId(transfer.creditAccountId().lo(), transfer.creditAccountId().hi());
            // NewTransfer guarantees amount >= 0, so the long is the u128's low half and the high half is 0.
            batch.setAmount(transfer.amount());
            batch.setPendingId(transfer.pendingId().lo(), transfer.pendingId().hi());
            batch.setUserData128(transfer.userData128().lo(), transfer.userData128().hi());
            batch.setUserData64(transfer.userData64());
            batch.setUserData32(transfer.userData32());
            batch.setTimeout(transfer.timeoutSeconds());
            batch.setLedger(transfer.ledger());
            batch.setCode(transfer.code());
            batch.setFlags(transfer.flags());
        }
        CreateTransferResultBatch failures = call("create_transfers", () -> client.createTransfersAsync(batch));
        return expandTransferResults(transfers.size(), failures);
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        IdBatch request = idBatch(ids);
        AccountBatch found = call("lookup_accounts", () -> client.lookupAccountsAsync(request));
        Check.that(found.getLength() <= ids.size(),
                "lookup_accounts answered %d accounts for %d ids", found.getLength(), ids.size());
        Map<Id128, Account> byId = new HashMap<>();
        while (found.next()) {
            Account account = toAccount(found);
            byId.put(account.id(), account);
        }
        return inRequestOrder(ids, byId, "lookup_accounts");
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        IdBatch request = idBatch(ids);
        TransferBatch found = call("lookup_transfers", () -> client.lookupTransfersAsync(request));
        Check.that(found.getLength() <= ids.size(),
                "lookup_transfers answered %d transfers for %d ids", found.getLength(), ids.size());
        Map<Id128, Transfer> byId = new HashMap<>();
        while (found.next()) {
            Transfer transfer = toTransfer(found);
            byId.put(transfer.id(), transfer);
        }
        return inRequestOrder(ids, byId, "lookup_transfers");
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
            throw new LedgerUnavailableException(operation + ": interrupted while waiting to send; nothing was sent", e);
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
            throw new LedgerUnavailableException(operation + ": no answer from TigerBeetle within " + requestTimeout
                    + "; it may or may not have been applied, retry with the same ids", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException(operation
                    + ": interrupted while waiting for TigerBeetle; it may or may not have been applied, retry with the same ids", e);
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
            Check.InvariantViolation violation = new Check.InvariantViolation(
                    operation + ": TigerBeetle's client broke an invariant: " + cause);
            violation.initCause(cause);
            return violation;
        }
        if (cause instanceof RequestException rejection) {
            return rejected(operation, rejection);
        }
        if (cause instanceof IllegalStateException) {
            // ClientClosedException, or the client's "Client is closed" for requests cut off by close().
            return new LedgerUnavailableException(operation
                    + ": the TigerBeetle client was closed; it may or may not have been applied, retry with the same ids", cause);
        }
        return new LedgerUnavailableException(operation + ": TigerBeetle request failed (" + cause
                + "); it may or may not have been applied, retry with the same ids", cause);
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
            case ClientEvicted -> "the client session was evicted; it may or may not have been applied, retry with the same ids";
            case TooMuchData -> "the cluster's request limit is below " + Ledger.BATCH_SIZE_MAX
                    + " events (started with --development and without --limit-request=1MiB?); nothing was applied";
            default -> "nothing was applied";
        };
        return new LedgerUnavailableException(
                operation + ": TigerBeetle's client rejected the request with " + status + " (" + rejection.getMessage()
                        + "); " + outcome, rejection);
    }

    /** Expands TigerBeetle's sparse failures (index, code) into one result per account, {@code OK} unless listed. */
    static List<AccountResult> expandAccountResults(int accountCount, CreateAccountResultBatch failures) {
        Check.that(failures != null, "create_accounts answered no result batch");
        Check.that(failures.getLength() <= accountCount,
                "create_accounts answered %d failures for %d accounts", failures.getLength(), accountCount);
        AccountResult[] results = new AccountResult[accountCount];
        Arrays.fill(results, AccountResult.OK);
        BitSet listed = new BitSet(accountCount);
        while (failures.next()) {
            int index = failures.getIndex();
            CreateAccountResult result = failures.getResult();
            Check.that(index >= 0 && index < accountCount,
                    "create_accounts failure index %d out of range for %d accounts", index, accountCount);
            Check.that(!listed.get(index), "create_accounts listed index %d twice", index);
            Check.that(result != null, "create_accounts failure at index %d has no known code", index);
            Check.that(result != CreateAccountResult.Ok, "create_accounts listed index %d as a failure with Ok", index);
            listed.set(index);
            results[index] = map(result);
        }
        return List.of(results);
    }

    /** Expands TigerBeetle's sparse failures (index, code) into one result per transfer, {@code OK} unless listed. */
    static List<TransferResult> expandTransferResults(int transferCount, CreateTransferResultBatch failures) {
        Check.that(failures != null, "create_transfers answered no result batch");
        Check.that(failures.getLength() <= transferCount,
                "create_transfers answered %d failures for %d transfers", failures.getLength(), transferCount);
        TransferResult[] results = new TransferResult[transferCount];
        Arrays.fill(results, TransferResult.OK);
        BitSet listed = new BitSet(transferCount);
        while (failures.next()) {
            int index = failures.getIndex();
            CreateTransferResult result = failures.getResult();
            Check.that(index >= 0 && index < transferCount,
                    "create_transfers failure index %d out of range for %d transfers", index, transferCount);
            Check.that(!listed.get(index), "create_transfers listed index %d twice", index);
            Check.that(result != null, "create_transfers failure at index %d has no known code", index);
            Check.that(result != CreateTransferResult.Ok, "create_transfers listed index %d as a failure with Ok", index);
            listed.set(index);
            results[index] = map(result);
        }
        return List.of(results);
    }

    /** Explicit, exhaustive and default-free: a code added to TigerBeetle's enum must fail compilation here. */
    static AccountResult map(CreateAccountResult result) {
        return switch (result) {
            case Ok -> AccountResult.OK;
            case LinkedEventFailed -> AccountResult.LINKED_EVENT_FAILED;
            case LinkedEventChainOpen -> AccountResult.LINKED_EVENT_CHAIN_OPEN;
            case ImportedEventExpected -> AccountResult.IMPORTED_EVENT_EXPECTED;
            case ImportedEventNotExpected -> AccountResult.IMPORTED_EVENT_NOT_EXPECTED;
            case TimestampMustBeZero -> AccountResult.TIMESTAMP_MUST_BE_ZERO;
            case ImportedEventTimestampOutOfRange -> AccountResult.IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE;
            case ImportedEventTimestampMustNotAdvance -> AccountResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE;
            case ReservedField -> AccountResult.RESERVED_FIELD;
            case ReservedFlag -> AccountResult.RESERVED_FLAG;
            case IdMustNotBeZero -> AccountResult.ID_MUST_NOT_BE_ZERO;
            case IdMustNotBeIntMax -> AccountResult.ID_MUST_NOT_BE_INT_MAX;
            case ExistsWithDifferentFlags -> AccountResult.EXISTS_WITH_DIFFERENT_FLAGS;
            case ExistsWithDifferentUserData128 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
            case ExistsWithDifferentUserData64 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
            case ExistsWithDifferentUserData32 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
            case ExistsWithDifferentLedger -> AccountResult.EXISTS_WITH_DIFFERENT_LEDGER;
            case ExistsWithDifferentCode -> AccountResult.EXISTS_WITH_DIFFERENT_CODE;
            case Exists -> AccountResult.EXISTS;
            case FlagsAreMutuallyExclusive -> AccountResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
            case DebitsPendingMustBeZero -> AccountResult.DEBITS_PENDING_MUST_BE_ZERO;
            case DebitsPostedMustBeZero -> AccountResult.DEBITS_POSTED_MUST_BE_ZERO;
            case CreditsPendingMustBeZero -> AccountResult.CREDITS_PENDING_MUST_BE_ZERO;
            case CreditsPostedMustBeZero -> AccountResult.CREDITS_POSTED_MUST_BE_ZERO;
            case LedgerMustNotBeZero -> AccountResult.LEDGER_MUST_NOT_BE_ZERO;
            case CodeMustNotBeZero -> AccountResult.CODE_MUST_NOT_BE_ZERO;
            case ImportedEventTimestampMustNotRegress -> AccountResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS;
        };
    }

    /** Explicit, exhaustive and default-free: a code added to TigerBeetle's enum must fail compilation here. */
    static TransferResult map(CreateTransferResult result) {
        return switch (result) {
            case Ok -> TransferResult.OK;
            case LinkedEventFailed -> TransferResult.LINKED_EVENT_FAILED;
            case LinkedEventChainOpen -> TransferResult.LINKED_EVENT_CHAIN_OPEN;
            case ImportedEventExpected -> TransferResult.IMPORTED_EVENT_EXPECTED;
            case ImportedEventNotExpected -> TransferResult.IMPORTED_EVENT_NOT_EXPECTED;
            case TimestampMustBeZero -> TransferResult.TIMESTAMP_MUST_BE_ZERO;
            case ImportedEventTimestampOutOfRange -> TransferResult.IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE;
            case ImportedEventTimestampMustNotAdvance -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE;
            case ReservedFlag -> TransferResult.RESERVED_FLAG;
            case IdMustNotBeZero -> TransferResult.ID_MUST_NOT_BE_ZERO;
            case IdMustNotBeIntMax -> TransferResult.ID_MUST_NOT_BE_INT_MAX;
            case ExistsWithDifferentFlags -> TransferResult.EXISTS_WITH_DIFFERENT_FLAGS;
            case ExistsWithDifferentPendingId -> TransferResult.EXISTS_WITH_DIFFERENT_PENDING_ID;
            case ExistsWithDifferentTimeout -> TransferResult.EXISTS_WITH_DIFFERENT_TIMEOUT;
            case ExistsWithDifferentDebitAccountId -> TransferResult.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
            case ExistsWithDifferentCreditAccountId -> TransferResult.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
            case ExistsWithDifferentAmount -> TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
            case ExistsWithDifferentUserData128 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
            case ExistsWithDifferentUserData64 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
            case ExistsWithDifferentUserData32 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
            case ExistsWithDifferentLedger -> TransferResult.EXISTS_WITH_DIFFERENT_LEDGER;
            case ExistsWithDifferentCode -> TransferResult.EXISTS_WITH_DIFFERENT_CODE;
            case Exists -> TransferResult.EXISTS;
            case IdAlreadyFailed -> TransferResult.ID_ALREADY_FAILED;
            case FlagsAreMutuallyExclusive -> TransferResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
            case DebitAccountIdMustNotBeZero -> TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
            case DebitAccountIdMustNotBeIntMax -> TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
            case CreditAccountIdMustNotBeZero -> TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
            case CreditAccountIdMustNotBeIntMax -> TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
            case AccountsMustBeDifferent -> TransferResult.ACCOUNTS_MUST_BE_DIFFERENT;
            case PendingIdMustBeZero -> TransferResult.PENDING_ID_MUST_BE_ZERO;
            case PendingIdMustNotBeZero -> TransferResult.PENDING_ID_MUST_NOT_BE_ZERO;
            case PendingIdMustNotBeIntMax -> TransferResult.PENDING_ID_MUST_NOT_BE_INT_MAX;
            case PendingIdMustBeDifferent -> TransferResult.PENDING_ID_MUST_BE_DIFFERENT;
            case TimeoutReservedForPendingTransfer -> TransferResult.TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;
            case ClosingTransferMustBePending -> TransferResult.CLOSING_TRANSFER_MUST_BE_PENDING;
            case AmountMustNotBeZero -> TransferResult.AMOUNT_MUST_NOT_BE_ZERO;
            case LedgerMustNotBeZero -> TransferResult.LEDGER_MUST_NOT_BE_ZERO;
            case CodeMustNotBeZero -> TransferResult.CODE_MUST_NOT_BE_ZERO;
            case DebitAccountNotFound -> TransferResult.DEBIT_ACCOUNT_NOT_FOUND;
            case CreditAccountNotFound -> TransferResult.CREDIT_ACCOUNT_NOT_FOUND;
            case AccountsMustHaveTheSameLedger -> TransferResult.ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER;
            case TransferMustHaveTheSameLedgerAsAccounts -> TransferResult.TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS;
            case PendingTransferNotFound -> TransferResult.PENDING_TRANSFER_NOT_FOUND;
            case PendingTransferNotPending -> TransferResult.PENDING_TRANSFER_NOT_PENDING;
            case PendingTransferHasDifferentDebitAccountId -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID;
            case PendingTransferHasDifferentCreditAccountId -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID;
            case PendingTransferHasDifferentLedger -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_LEDGER;
            case PendingTransferHasDifferentCode -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CODE;
            case ExceedsPendingTransferAmount -> TransferResult.EXCEEDS_PENDING_TRANSFER_AMOUNT;
            case PendingTransferHasDifferentAmount -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT;
            case PendingTransferAlreadyPosted -> TransferResult.PENDING_TRANSFER_ALREADY_POSTED;
            case PendingTransferAlreadyVoided -> TransferResult.PENDING_TRANSFER_ALREADY_VOIDED;
            case PendingTransferExpired -> TransferResult.PENDING_TRANSFER_EXPIRED;
            case ImportedEventTimestampMustNotRegress -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS;
            case ImportedEventTimestampMustPostdateDebitAccount -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_DEBIT_ACCOUNT;
            case ImportedEventTimestampMustPostdateCreditAccount -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_CREDIT_ACCOUNT;
            case ImportedEventTimeoutMustBeZero -> TransferResult.IMPORTED_EVENT_TIMEOUT_MUST_BE_ZERO;
            case DebitAccountAlreadyClosed -> TransferResult.DEBIT_ACCOUNT_ALREADY_CLOSED;
            case CreditAccountAlreadyClosed -> TransferResult.CREDIT_ACCOUNT_ALREADY_CLOSED;
            case OverflowsDebitsPending -> TransferResult.OVERFLOWS_DEBITS_PENDING;
            case OverflowsCreditsPending -> TransferResult.OVERFLOWS_CREDITS_PENDING;
            case OverflowsDebitsPosted -> TransferResult.OVERFLOWS_DEBITS_POSTED;
            case OverflowsCreditsPosted -> TransferResult.OVERFLOWS_CREDITS_POSTED;
            case OverflowsDebits -> TransferResult.OVERFLOWS_DEBITS;
            case OverflowsCredits -> TransferResult.OVERFLOWS_CREDITS;
            case OverflowsTimeout -> TransferResult.OVERFLOWS_TIMEOUT;
            case ExceedsCredits -> TransferResult.EXCEEDS_CREDITS;
            case ExceedsDebits -> TransferResult.EXCEEDS_DEBITS;
        };
    }

    private static IdBatch idBatch(List<Id128> ids) {
        IdBatch batch = new IdBatch(ids.size());
        for (Id128 id : ids) {
            batch.add(id.lo(), id.hi());
        }
        return batch;
    }

    /**
     * TigerBeetle answers the ids it found; the port promises request order. Every answered id must have
     * been asked for, or the reply belongs to some other request.
     */
    private static <T> List<T> inRequestOrder(List<Id128> ids, Map<Id128, T> byId, String operation) {
        Check.that(ids.containsAll(byId.keySet()), "%s answered ids that were not requested", operation);
        List<T> ordered = new ArrayList<>(byId.size());
        for (Id128 id : ids) {
            T found = byId.get(id);
            if (found != null) {
                ordered.add(found);
            }
        }
        return List.copyOf(ordered);
    }

    private static Account toAccount(AccountBatch batch) {
        Id128 id = new Id128(batch.getId(UInt128.MostSignificant), batch.getId(UInt128.LeastSignificant));
        return new Account(
                id,
                batch.getLedger(),
                batch.getCode(),
                batch.getFlags(),
                u128AsLong(batch.getDebitsPending(UInt128.LeastSignificant),
                        batch.getDebitsPending(UInt128.MostSignificant), "debits_pending", id),
                u128AsLong(batch.getDebitsPosted(UInt128.LeastSignificant),
                        batch.getDebitsPosted(UInt128.MostSignificant), "debits_posted", id),
                u128AsLong(batch.getCreditsPending(UInt128.LeastSignificant),
                        batch.getCreditsPending(UInt128.MostSignificant), "credits_pending", id),
                u128AsLong(batch.getCreditsPosted(UInt128.LeastSignificant),
                        batch.getCreditsPosted(UInt128.MostSignificant), "credits_posted", id),
                new Id128(batch.getUserData128(UInt128.MostSignificant), batch.getUserData128(UInt128.LeastSignificant)),
                batch.getUserData64(),
                batch.getUserData32(),
                batch.getTimestamp());
    }

    private static Transfer toTransfer(TransferBatch batch) {
        Id128 id = new Id128(batch.getId(UInt128.MostSignificant), batch.getId(UInt128.LeastSignificant));
        int timeoutSeconds = batch.getTimeout();
        Check.that(timeoutSeconds >= 0, "transfer %s has a timeout above 2^31-1 s: %s",
                id, Integer.toUnsignedString(timeoutSeconds));
        return new Transfer(
                id,
                new Id128(batch.getDebitAccountId(UInt128.MostSignificant), batch.getDebitAccountId(UInt128.LeastSignificant)),
                new Id128(batch.getCreditAccountId(UInt128.MostSignificant), batch.getCreditAccountId(UInt128.LeastSignificant)),
                u128AsLong(batch.getAmount(UInt128.LeastSignificant), batch.getAmount(UInt128.MostSignificant), "amount", id),
                new Id128(batch.getPendingId(UInt128.MostSignificant), batch.getPendingId(UInt128.LeastSignificant)),
                new Id128(batch.getUserData128(UInt128.MostSignificant), batch.getUserData128(UInt128.LeastSignificant)),
                batch.getUserData64(),
                batch.getUserData32(),
                timeoutSeconds,
                batch.getLedger(),
                batch.getCode(),
                batch.getFlags(),
                batch.getTimestamp());
    }

    /**
     * The port keeps amounts and balances in a signed long; TigerBeetle keeps u128. Anything above
     * {@link Long#MAX_VALUE} cannot come from this port's writes, so it is corruption or a foreign writer:
     * crash rather than truncate.
     */
    static long u128AsLong(long low, long high, String field, Id128 owner) {
        Check.that(high == 0 && low >= 0, "%s of %s is 0x%016x%016x, above Long.MAX_VALUE", field, owner, high, low);
        return low;
    }
}
