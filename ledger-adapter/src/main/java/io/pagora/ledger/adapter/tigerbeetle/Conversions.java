package io.pagora.ledger.adapter.tigerbeetle;

import com.tigerbeetle.AccountBatch;
import com.tigerbeetle.IdBatch;
import com.tigerbeetle.TransferBatch;
import com.tigerbeetle.UInt128;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * The port's records to tigerbeetle-java's batches and back. Nothing here talks to the cluster.
 *
 * <p>Reading back is strict: a lookup reply longer than the request, an id nobody asked for, or a u128 the
 * port's signed long cannot hold is a {@link Check.InvariantViolation}, never a truncated value.
 */
final class Conversions {

    private Conversions() {}

    static AccountBatch accountBatch(List<NewAccount> accounts) {
        AccountBatch batch = new AccountBatch(accounts.size());
        for (NewAccount account : accounts) {
            batch.add();
            batch.setId(account.id().lo(), account.id().hi());
            batch.setUserData128(
                    account.userData128().lo(), account.userData128().hi());
            batch.setUserData64(account.userData64());
            batch.setUserData32(account.userData32());
            batch.setLedger(account.ledger());
            batch.setCode(account.code());
            batch.setFlags(account.flags());
        }
        return batch;
    }

    static TransferBatch transferBatch(List<NewTransfer> transfers) {
        TransferBatch batch = new TransferBatch(transfers.size());
        for (NewTransfer transfer : transfers) {
            batch.add();
            batch.setId(transfer.id().lo(), transfer.id().hi());
            batch.setDebitAccountId(
                    transfer.debitAccountId().lo(), transfer.debitAccountId().hi());
            batch.setCreditAccountId(
                    transfer.creditAccountId().lo(), transfer.creditAccountId().hi());
            // NewTransfer guarantees amount >= 0, so the long is the u128's low half and the high half is 0.
            batch.setAmount(transfer.amount());
            batch.setPendingId(transfer.pendingId().lo(), transfer.pendingId().hi());
            batch.setUserData128(
                    transfer.userData128().lo(), transfer.userData128().hi());
            batch.setUserData64(transfer.userData64());
            batch.setUserData32(transfer.userData32());
            batch.setTimeout(transfer.timeoutSeconds());
            batch.setLedger(transfer.ledger());
            batch.setCode(transfer.code());
            batch.setFlags(transfer.flags());
        }
        return batch;
    }

    static IdBatch idBatch(List<Id128> ids) {
        IdBatch batch = new IdBatch(ids.size());
        for (Id128 id : ids) {
            batch.add(id.lo(), id.hi());
        }
        return batch;
    }

    /** The accounts TigerBeetle found, in the order they were asked for. */
    static List<Account> accounts(List<Id128> ids, AccountBatch found) {
        Check.that(
                found.getLength() <= ids.size(),
                "lookup_accounts answered %d accounts for %d ids",
                found.getLength(),
                ids.size());
        Map<Id128, Account> byId = new HashMap<>();
        while (found.next()) {
            Account account = toAccount(found);
            byId.put(account.id(), account);
        }
        return inRequestOrder(ids, byId, "lookup_accounts");
    }

    /** The accounts a query answered, in the ledger's (timestamp) order. */
    static List<Account> queriedAccounts(AccountBatch found, int limit) {
        Check.that(
                found.getLength() <= limit,
                "query_accounts answered %d accounts for a limit of %d",
                found.getLength(),
                limit);
        List<Account> accounts = new ArrayList<>(found.getLength());
        while (found.next()) {
            Account account = toAccount(found);
            Check.that(
                    accounts.isEmpty() || accounts.getLast().timestamp() < account.timestamp(),
                    "query_accounts answered out of timestamp order at %s",
                    account.id());
            accounts.add(account);
        }
        return List.copyOf(accounts);
    }

    /** The transfers TigerBeetle found, in the order they were asked for. */
    static List<Transfer> accountTransfers(TransferBatch found, int limit) {
        Check.that(
                found.getLength() <= limit,
                "get_account_transfers answered %d transfers for a limit of %d",
                found.getLength(),
                limit);
        List<Transfer> transfers = new ArrayList<>(found.getLength());
        while (found.next()) {
            Transfer transfer = toTransfer(found);
            Check.that(
                    transfers.isEmpty() || transfers.getLast().timestamp() < transfer.timestamp(),
                    "get_account_transfers answered out of timestamp order at %s",
                    transfer.id());
            transfers.add(transfer);
        }
        return transfers;
    }

    static List<Transfer> transfers(List<Id128> ids, TransferBatch found) {
        Check.that(
                found.getLength() <= ids.size(),
                "lookup_transfers answered %d transfers for %d ids",
                found.getLength(),
                ids.size());
        Map<Id128, Transfer> byId = new HashMap<>();
        while (found.next()) {
            Transfer transfer = toTransfer(found);
            byId.put(transfer.id(), transfer);
        }
        return inRequestOrder(ids, byId, "lookup_transfers");
    }

    /**
     * TigerBeetle answers the ids it found; the port promises request order. Every answered id must have
     * been asked for, or the reply belongs to some other request.
     */
    private static <T> List<T> inRequestOrder(List<Id128> ids, Map<Id128, T> byId, String operation) {
        // A set: asking a list for each answered id is quadratic, and lookups carry thousands of ids.
        Check.that(new HashSet<>(ids).containsAll(byId.keySet()), "%s answered ids that were not requested", operation);
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
                u128AsLong(
                        batch.getDebitsPending(UInt128.LeastSignificant),
                        batch.getDebitsPending(UInt128.MostSignificant),
                        "debits_pending",
                        id),
                u128AsLong(
                        batch.getDebitsPosted(UInt128.LeastSignificant),
                        batch.getDebitsPosted(UInt128.MostSignificant),
                        "debits_posted",
                        id),
                u128AsLong(
                        batch.getCreditsPending(UInt128.LeastSignificant),
                        batch.getCreditsPending(UInt128.MostSignificant),
                        "credits_pending",
                        id),
                u128AsLong(
                        batch.getCreditsPosted(UInt128.LeastSignificant),
                        batch.getCreditsPosted(UInt128.MostSignificant),
                        "credits_posted",
                        id),
                new Id128(
                        batch.getUserData128(UInt128.MostSignificant), batch.getUserData128(UInt128.LeastSignificant)),
                batch.getUserData64(),
                batch.getUserData32(),
                batch.getTimestamp());
    }

    private static Transfer toTransfer(TransferBatch batch) {
        Id128 id = new Id128(batch.getId(UInt128.MostSignificant), batch.getId(UInt128.LeastSignificant));
        int timeoutSeconds = batch.getTimeout();
        Check.that(
                timeoutSeconds >= 0,
                "transfer %s has a timeout above 2^31-1 s: %s",
                id,
                Integer.toUnsignedString(timeoutSeconds));
        return new Transfer(
                id,
                new Id128(
                        batch.getDebitAccountId(UInt128.MostSignificant),
                        batch.getDebitAccountId(UInt128.LeastSignificant)),
                new Id128(
                        batch.getCreditAccountId(UInt128.MostSignificant),
                        batch.getCreditAccountId(UInt128.LeastSignificant)),
                u128AsLong(
                        batch.getAmount(UInt128.LeastSignificant),
                        batch.getAmount(UInt128.MostSignificant),
                        "amount",
                        id),
                new Id128(batch.getPendingId(UInt128.MostSignificant), batch.getPendingId(UInt128.LeastSignificant)),
                new Id128(
                        batch.getUserData128(UInt128.MostSignificant), batch.getUserData128(UInt128.LeastSignificant)),
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
