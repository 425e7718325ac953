package io.pagora.ledger.adapter.tigerbeetle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tigerbeetle.CreateAccountResult;
import com.tigerbeetle.CreateTransferResult;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.BatchTooLargeException;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TigerBeetleServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Proves the TigerBeetle adapter keeps the port's promises on a real TigerBeetle server (0.16.78, through
 * the 0.16.30 client):
 * accounts and transfers survive a create/lookup round trip field by field (including both halves of
 * 128-bit ids, so {@code setId(lo, hi)} is in the right order); TigerBeetle's sparse failure lists come
 * back dense, one result per input in input order; lookups answer in request order without unknown ids;
 * a full batch of {@link Ledger#BATCH_SIZE_MAX} events is accepted.
 *
 * <p>Without a server (see {@link TigerBeetleServer}) those tests are SKIPPED with the reason. The ones
 * that need no server run everywhere: our deadline fires although TigerBeetle's client would retry an
 * unreachable cluster forever; the in-flight bound refuses a caller while an abandoned request still
 * holds its slot; oversized batches are refused and empty ones answered without sending anything; and
 * every TigerBeetle result code maps to the domain code of the same name and position.
 */
@ServerBacked
class TigerBeetleLedgerTest {

    private static final int LEDGER_BRL = 986;
    private static final int CODE = 1;
    /** Generous: a freshly started replica can take seconds to register its first client. */
    private static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 16);

    /** Ids unique to this run, with a non-zero high half so a swapped setId would show. */
    private static final long RUN_HI = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);

    private static final AtomicLong NEXT_LO = new AtomicLong(1);

    private static Id128 newId() {
        return new Id128(RUN_HI, NEXT_LO.getAndIncrement());
    }

    private static Ledger ledgerOnSharedServer() {
        return TigerBeetleServer.requireShared()
                .openLedger((cluster, address) -> new TigerBeetleLedger(cluster, address, CONFIG));
    }

    // ------------------------------------------------------------------ against a server

    @Test
    void accountsAndTransfersSurviveARoundTrip() {
        try (Ledger ledger = ledgerOnSharedServer()) {
            Id128 customer = newId();
            Id128 reserve = newId();
            Id128 customerData = new Id128(0x0123456789abcdefL, 0xfedcba9876543210L);
            List<AccountResult> accountResults = ledger.createAccounts(List.of(
                    new NewAccount(
                            customer,
                            LEDGER_BRL,
                            10,
                            AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS,
                            customerData,
                            64L,
                            32),
                    NewAccount.of(reserve, LEDGER_BRL, 20, AccountFlags.NONE)));
            assertThat(accountResults).containsExactly(AccountResult.OK, AccountResult.OK);

            Id128 deposit = newId();
            Id128 transferData = new Id128(-1L, 7L);
            NewTransfer newTransfer = new NewTransfer(
                    deposit,
                    reserve,
                    customer,
                    12_345L,
                    Id128.ZERO,
                    transferData,
                    640L,
                    320,
                    0,
                    LEDGER_BRL,
                    CODE,
                    TransferFlags.NONE);
            assertThat(ledger.createTransfers(List.of(newTransfer))).containsExactly(TransferResult.OK);
            assertThat(ledger.createTransfers(List.of(newTransfer))).containsExactly(TransferResult.EXISTS);

            Id128 unknown = newId();
            List<Account> accounts = ledger.lookupAccounts(List.of(reserve, unknown, customer));
            assertThat(accounts).extracting(Account::id).containsExactly(reserve, customer);

            Account reserveAccount = accounts.get(0);
            assertThat(reserveAccount.debitsPosted()).isEqualTo(12_345L);
            assertThat(reserveAccount.creditsPosted()).isZero();
            assertThat(reserveAccount.code()).isEqualTo(20);

            Account customerAccount = accounts.get(1);
            assertThat(customerAccount.ledger()).isEqualTo(LEDGER_BRL);
            assertThat(customerAccount.code()).isEqualTo(10);
            assertThat(customerAccount.flags()).isEqualTo(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS);
            assertThat(customerAccount.userData128()).isEqualTo(customerData);
            assertThat(customerAccount.userData64()).isEqualTo(64L);
            assertThat(customerAccount.userData32()).isEqualTo(32);
            assertThat(customerAccount.creditsPosted()).isEqualTo(12_345L);
            assertThat(customerAccount.creditBalancePosted()).isEqualTo(12_345L);
            assertThat(customerAccount.debitsPending()).isZero();
            assertThat(customerAccount.creditsPending()).isZero();
            assertThat(customerAccount.timestamp()).isPositive();

            List<Transfer> transfers = ledger.lookupTransfers(List.of(unknown, deposit));
            assertThat(transfers).hasSize(1);
            Transfer transfer = transfers.get(0);
            assertThat(transfer.id()).isEqualTo(deposit);
            assertThat(transfer.debitAccountId()).isEqualTo(reserve);
            assertThat(transfer.creditAccountId()).isEqualTo(customer);
            assertThat(transfer.amount()).isEqualTo(12_345L);
            assertThat(transfer.pendingId()).isEqualTo(Id128.ZERO);
            assertThat(transfer.userData128()).isEqualTo(transferData);
            assertThat(transfer.userData64()).isEqualTo(640L);
            assertThat(transfer.userData32()).isEqualTo(320);
            assertThat(transfer.timeoutSeconds()).isZero();
            assertThat(transfer.ledger()).isEqualTo(LEDGER_BRL);
            assertThat(transfer.code()).isEqualTo(CODE);
            assertThat(transfer.flags()).isEqualTo(TransferFlags.NONE);
            assertThat(transfer.timestamp()).isGreaterThan(customerAccount.timestamp());
        }
    }

    @Test
    void pendingTransferKeepsItsTimeoutAndPendingBalances() {
        try (Ledger ledger = ledgerOnSharedServer()) {
            Id128 from = newId();
            Id128 to = newId();
            assertThat(ledger.createAccounts(List.of(
                            NewAccount.of(from, LEDGER_BRL, CODE, AccountFlags.NONE),
                            NewAccount.of(to, LEDGER_BRL, CODE, AccountFlags.NONE))))
                    .containsOnly(AccountResult.OK);
            Id128 hold = newId();
            Id128 capture = newId();
            assertThat(ledger.createTransfers(List.of(
                            NewTransfer.pending(hold, from, to, 900L, 3600, LEDGER_BRL, CODE, Id128.ZERO),
                            NewTransfer.post(capture, hold, 400L))))
                    .containsExactly(TransferResult.OK, TransferResult.OK);

            List<Transfer> transfers = ledger.lookupTransfers(List.of(capture, hold));
            assertThat(transfers).extracting(Transfer::id).containsExactly(capture, hold);
            assertThat(transfers.get(1).timeoutSeconds()).isEqualTo(3600);
            assertThat(transfers.get(1).hasFlag(TransferFlags.PENDING)).isTrue();
            assertThat(transfers.get(0).pendingId()).isEqualTo(hold);
            assertThat(transfers.get(0).debitAccountId()).isEqualTo(from);
            assertThat(transfers.get(0).amount()).isEqualTo(400L);

            Account debited = ledger.lookupAccounts(List.of(from)).get(0);
            assertThat(debited.debitsPending()).isZero();
            assertThat(debited.debitsPosted()).isEqualTo(400L);
        }
    }

    @Test
    void sparseFailuresComeBackDenseInInputOrder() {
        try (Ledger ledger = ledgerOnSharedServer()) {
            Id128 a = newId();
            Id128 b = newId();
            List<AccountResult> accountResults = ledger.createAccounts(List.of(
                    NewAccount.of(a, LEDGER_BRL, CODE, AccountFlags.NONE),
                    NewAccount.of(Id128.ZERO, LEDGER_BRL, CODE, AccountFlags.NONE),
                    NewAccount.of(b, LEDGER_BRL, CODE, AccountFlags.NONE),
                    NewAccount.of(newId(), 0, CODE, AccountFlags.NONE),
                    NewAccount.of(a, LEDGER_BRL, CODE, AccountFlags.NONE),
                    NewAccount.of(a, LEDGER_BRL, CODE + 1, AccountFlags.NONE)));
            assertThat(accountResults)
                    .containsExactly(
                            AccountResult.OK,
                            AccountResult.ID_MUST_NOT_BE_ZERO,
                            AccountResult.OK,
                            AccountResult.LEDGER_MUST_NOT_BE_ZERO,
                            AccountResult.EXISTS,
                            AccountResult.EXISTS_WITH_DIFFERENT_CODE);

            Id128 missing = newId();
            List<TransferResult> transferResults = ledger.createTransfers(List.of(
                    NewTransfer.posted(newId(), a, b, 1L, LEDGER_BRL, CODE, Id128.ZERO),
                    NewTransfer.posted(newId(), a, a, 1L, LEDGER_BRL, CODE, Id128.ZERO),
                    NewTransfer.posted(newId(), a, missing, 1L, LEDGER_BRL, CODE, Id128.ZERO),
                    NewTransfer.posted(newId(), b, a, 1L, LEDGER_BRL, CODE, Id128.ZERO),
                    NewTransfer.posted(newId(), a, b, 1L, LEDGER_BRL, CODE, Id128.ZERO)
                            .linked(),
                    NewTransfer.posted(newId(), missing, b, 1L, LEDGER_BRL, CODE, Id128.ZERO),
                    NewTransfer.posted(Id128.MAX, a, b, 1L, LEDGER_BRL, CODE, Id128.ZERO)));
            assertThat(transferResults)
                    .containsExactly(
                            TransferResult.OK,
                            TransferResult.ACCOUNTS_MUST_BE_DIFFERENT,
                            TransferResult.CREDIT_ACCOUNT_NOT_FOUND,
                            TransferResult.OK,
                            TransferResult.LINKED_EVENT_FAILED,
                            TransferResult.DEBIT_ACCOUNT_NOT_FOUND,
                            TransferResult.ID_MUST_NOT_BE_INT_MAX);
        }
    }

    @Test
    void aFullBatchIsAccepted() {
        try (Ledger ledger = ledgerOnSharedServer()) {
            List<NewAccount> accounts = IntStream.range(0, Ledger.BATCH_SIZE_MAX)
                    .mapToObj(i -> NewAccount.of(newId(), LEDGER_BRL, CODE, AccountFlags.NONE))
                    .toList();
            List<AccountResult> results = ledger.createAccounts(accounts);
            assertThat(results).hasSize(Ledger.BATCH_SIZE_MAX).containsOnly(AccountResult.OK);

            List<Id128> ids = accounts.stream().map(NewAccount::id).toList().reversed();
            assertThat(ledger.lookupAccounts(ids)).extracting(Account::id).containsExactlyElementsOf(ids);
        }
    }

    // ------------------------------------------------------------------ no server needed

    @Test
    void ourDeadlineFiresWhileTigerBeetleRetriesForever() {
        TigerBeetleLedger.Config config = new TigerBeetleLedger.Config(Duration.ofMillis(500), 4);
        try (TigerBeetleLedger ledger = new TigerBeetleLedger(0, "127.0.0.1:" + portWithNothingListening(), config)) {
            long startNanos = System.nanoTime();
            assertThatThrownBy(() -> ledger.createAccounts(List.of(NewAccount.of(newId(), LEDGER_BRL, CODE, 0))))
                    .isInstanceOf(LedgerUnavailableException.class)
                    .hasMessageContaining("may or may not have been applied");
            Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
            assertThat(elapsed).isBetween(Duration.ofMillis(450), Duration.ofSeconds(5));
        }
    }

    @Test
    void anAbandonedRequestKeepsItsInFlightSlot() {
        TigerBeetleLedger.Config config = new TigerBeetleLedger.Config(Duration.ofMillis(300), 1);
        try (TigerBeetleLedger ledger = new TigerBeetleLedger(0, "127.0.0.1:" + portWithNothingListening(), config)) {
            assertThatThrownBy(() -> ledger.lookupAccounts(List.of(newId())))
                    .isInstanceOf(LedgerUnavailableException.class)
                    .hasMessageContaining("no answer");
            assertThatThrownBy(() -> ledger.lookupTransfers(List.of(newId())))
                    .isInstanceOf(LedgerUnavailableException.class)
                    .hasMessageContaining("in flight")
                    .hasMessageContaining("nothing was sent");
        }
    }

    @Test
    void callsAfterCloseAreUnavailable() {
        TigerBeetleLedger ledger = new TigerBeetleLedger(0, "127.0.0.1:" + portWithNothingListening(), CONFIG);
        ledger.close();
        ledger.close();
        assertThatThrownBy(() -> ledger.lookupAccounts(List.of(newId())))
                .isInstanceOf(LedgerUnavailableException.class);
    }

    @Test
    void oversizedBatchesAreRefusedAndEmptyOnesAnsweredWithoutSending() {
        // Nothing listens, so anything actually sent would hit the (long) deadline instead of returning at once.
        try (TigerBeetleLedger ledger = new TigerBeetleLedger(0, "127.0.0.1:" + portWithNothingListening(), CONFIG)) {
            List<NewTransfer> tooMany = new ArrayList<>();
            for (int i = 0; i <= Ledger.BATCH_SIZE_MAX; i++) {
                tooMany.add(NewTransfer.posted(newId(), newId(), newId(), 1L, LEDGER_BRL, CODE, Id128.ZERO));
            }
            long startNanos = System.nanoTime();
            assertThatThrownBy(() -> ledger.createTransfers(tooMany))
                    .isInstanceOf(BatchTooLargeException.class)
                    .satisfies(
                            e -> assertThat(((BatchTooLargeException) e).size()).isEqualTo(Ledger.BATCH_SIZE_MAX + 1));
            assertThatThrownBy(() -> ledger.createAccounts(tooMany.stream()
                            .map(t -> NewAccount.of(t.id(), LEDGER_BRL, CODE, 0))
                            .toList()))
                    .isInstanceOf(BatchTooLargeException.class);
            assertThatThrownBy(() -> ledger.lookupAccounts(
                            tooMany.stream().map(NewTransfer::id).toList()))
                    .isInstanceOf(BatchTooLargeException.class);

            assertThat(ledger.createAccounts(List.of())).isEmpty();
            assertThat(ledger.createTransfers(List.of())).isEmpty();
            assertThat(ledger.lookupAccounts(List.of())).isEmpty();
            assertThat(ledger.lookupTransfers(List.of())).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(CONFIG.requestTimeout());
        }
    }

    @Test
    void everyTigerBeetleCodeMapsToTheDomainCodeOfTheSameNameAndPosition() {
        for (CreateTransferResult code : CreateTransferResult.values()) {
            TransferResult mapped = ResultCodes.map(code);
            assertThat(mapped.name()).isEqualTo(upperSnake(code.name()));
            assertThat(mapped.ordinal()).as("position of %s", code).isEqualTo(code.ordinal());
        }
        assertThat(TransferResult.values()).hasSameSizeAs(CreateTransferResult.values());
        for (CreateAccountResult code : CreateAccountResult.values()) {
            AccountResult mapped = ResultCodes.map(code);
            assertThat(mapped.name()).isEqualTo(upperSnake(code.name()));
            assertThat(mapped.ordinal()).as("position of %s", code).isEqualTo(code.ordinal());
        }
        assertThat(AccountResult.values()).hasSameSizeAs(CreateAccountResult.values());
    }

    @Test
    void balancesAboveLongMaxAreACrash() {
        assertThat(Conversions.u128AsLong(Long.MAX_VALUE, 0, "credits_posted", Id128.of(1)))
                .isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> Conversions.u128AsLong(-1L, 0, "credits_posted", Id128.of(1)))
                .isInstanceOf(io.pagora.kernel.Check.InvariantViolation.class);
        assertThatThrownBy(() -> Conversions.u128AsLong(0, 1, "credits_posted", Id128.of(1)))
                .isInstanceOf(io.pagora.kernel.Check.InvariantViolation.class);
    }

    /** {@code ExistsWithDifferentUserData128} → {@code EXISTS_WITH_DIFFERENT_USER_DATA_128}. */
    private static String upperSnake(String camel) {
        return camel.replaceAll("([a-z])([A-Z0-9])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
    }

    private static int portWithNothingListening() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
