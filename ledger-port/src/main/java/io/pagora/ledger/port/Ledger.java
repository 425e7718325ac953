package io.pagora.ledger.port;

import io.pagora.kernel.Id128;
import java.util.List;

/**
 * The ledger port: double-entry accounts and transfers with TigerBeetle 0.16.30 semantics.
 *
 * <p>Every call is one request to the backend, applied in order as one atomic unit per linked chain,
 * and answers one result per input, in input order. A request carries at most {@link #BATCH_SIZE_MAX}
 * events; a larger one is refused with {@link BatchTooLargeException} before anything is sent.
 *
 * <p>Calls are idempotent per id: repeating a create with identical fields answers {@code EXISTS};
 * with different fields {@code EXISTS_WITH_DIFFERENT_*}. A call that fails with
 * {@link LedgerUnavailableException} may or may not have been applied; retry it with the same ids.
 *
 * <p>Implementations are thread-safe and meant to be shared by a whole process.
 */
public interface Ledger extends AutoCloseable {

    /** TigerBeetle's limit for one request of transfers (1 MiB message body, 128-byte events). */
    int BATCH_SIZE_MAX = 8189;

    List<AccountResult> createAccounts(List<NewAccount> accounts);

    List<TransferResult> createTransfers(List<NewTransfer> transfers);

    /** The accounts that exist, in request order; unknown ids are left out. */
    List<Account> lookupAccounts(List<Id128> ids);

    /** The transfers that exist, in request order; unknown ids are left out. */
    List<Transfer> lookupTransfers(List<Id128> ids);

    /**
     * The accounts of {@code ledger} created after the ledger timestamp {@code timestampAfter}, in creation
     * (timestamp) order, at most {@code limit} (1..{@link #BATCH_SIZE_MAX}): TigerBeetle's {@code query_accounts}.
     * A caller walks the ledger's whole account set a page at a time, passing the last answered account's
     * timestamp; fewer than {@code limit} accounts means the walk reached the newest account.
     */
    List<Account> queryAccounts(int ledger, long timestampAfter, int limit);

    /** Which of an account's transfers {@link #accountTransfers} answers: those debiting it, crediting it, or both. */
    enum Sides {
        DEBITS,
        CREDITS,
        BOTH
    }

    /**
     * The transfers on {@code sides} of {@code account} created after the ledger timestamp {@code timestampAfter}, in
     * timestamp order, at most {@code limit} (1..{@link #BATCH_SIZE_MAX}): TigerBeetle's {@code get_account_transfers}.
     * Pending transfers are answered, and so are the transfers that post or void them (with the pending transfer's
     * accounts). A caller follows an account's history a page at a time, passing the last answered transfer's
     * timestamp; fewer than {@code limit} transfers means the page reached the newest one. An unknown account has none.
     */
    List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit);

    static void checkQueryLimit(int limit) {
        if (limit < 1 || limit > BATCH_SIZE_MAX) {
            throw new IllegalArgumentException("a query answers 1.." + BATCH_SIZE_MAX + " accounts: " + limit);
        }
    }

    /** A short name for reports: "tigerbeetle" or "postgresql". */
    String backendName();

    @Override
    void close();

    static void checkBatchSize(int size) {
        if (size > BATCH_SIZE_MAX) {
            throw new BatchTooLargeException(size);
        }
    }
}
