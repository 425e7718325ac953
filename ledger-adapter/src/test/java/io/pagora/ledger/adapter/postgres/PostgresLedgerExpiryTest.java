package io.pagora.ledger.adapter.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the PostgreSQL ledger releases timed-out reservations that no sweeper has touched, even when
 * they chain across accounts the batch never names: due reservations X→Y, W→Y and W→Z are all
 * released when a batch touches only X and Y, and W's whole balance is spendable again. Releasing W→Z touches Z,
 * which the batch never names: due reservations are released in a transaction of their own that locks both of
 * their accounts, so the batch then runs without them instead of retrying forever.
 */
class PostgresLedgerExpiryTest extends PostgresLedgerTestBase {

    @Test
    void dueReservationsChainedThroughUnnamedAccountsAreReleasedNotRetriedForever() throws Exception {
        Id128 issuer = randomId(), x = randomId(), w = randomId(), y = randomId(), z = randomId();
        List<Id128> all = List.of(issuer, x, w, y, z);
        assertThat(ledger.createAccounts(List.of(
                        NewAccount.of(issuer, LEDGER, 1, AccountFlags.NONE),
                        NewAccount.of(x, LEDGER, 4, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS),
                        NewAccount.of(w, LEDGER, 4, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS),
                        NewAccount.of(y, LEDGER, 4, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS),
                        NewAccount.of(z, LEDGER, 4, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS))))
                .containsOnly(AccountResult.OK);
        assertThat(ledger.createTransfers(List.of(
                        NewTransfer.posted(randomId(), issuer, x, 100, LEDGER, 1, Id128.ZERO),
                        NewTransfer.posted(randomId(), issuer, w, 100, LEDGER, 1, Id128.ZERO))))
                .containsOnly(TransferResult.OK);
        Id128 xToY = randomId();
        assertThat(ledger.createTransfers(List.of(
                        NewTransfer.pending(xToY, x, y, 100, 1, LEDGER, 2, Id128.ZERO),
                        NewTransfer.pending(randomId(), w, y, 60, 1, LEDGER, 2, Id128.ZERO),
                        NewTransfer.pending(randomId(), w, z, 40, 1, LEDGER, 2, Id128.ZERO))))
                .containsOnly(TransferResult.OK);
        assertThat(ledger.createTransfers(List.of(NewTransfer.posted(randomId(), w, issuer, 1, LEDGER, 3, Id128.ZERO))))
                .as("W's balance is fully reserved before the timeout")
                .containsExactly(TransferResult.EXCEEDS_CREDITS);

        // Lets the reservations' 1 s timeout run out, no sweeper running: nothing to poll for without touching them.
        Thread.sleep(1_500);

        assertThat(ledger.createTransfers(List.of(NewTransfer.voidPending(randomId(), xToY))))
                .containsExactly(TransferResult.PENDING_TRANSFER_EXPIRED);
        assertThat(ledger.createTransfers(
                        List.of(NewTransfer.posted(randomId(), w, issuer, 100, LEDGER, 3, Id128.ZERO))))
                .as("W's reservations expired: all of its money is spendable")
                .containsExactly(TransferResult.OK);

        List<Account> accounts = ledger.lookupAccounts(all);
        assertThat(accounts).allSatisfy(account -> {
            assertThat(account.debitsPending()).isZero();
            assertThat(account.creditsPending()).isZero();
        });
        assertThat(accounts.stream().mapToLong(Account::debitsPosted).sum())
                .isEqualTo(accounts.stream().mapToLong(Account::creditsPosted).sum());
        assertThat(accounts)
                .filteredOn(account -> account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS))
                .allSatisfy(
                        account -> assertThat(account.creditBalanceAvailable()).isNotNegative());
        assertThat(ledger.sweepExpired(100)).as("nothing left for a sweeper").isZero();
    }
}
