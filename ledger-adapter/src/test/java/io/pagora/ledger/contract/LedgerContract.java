package io.pagora.ledger.contract;

import static io.pagora.ledger.port.TransferResult.ACCOUNTS_MUST_BE_DIFFERENT;
import static io.pagora.ledger.port.TransferResult.ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER;
import static io.pagora.ledger.port.TransferResult.CODE_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
import static io.pagora.ledger.port.TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.CREDIT_ACCOUNT_NOT_FOUND;
import static io.pagora.ledger.port.TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
import static io.pagora.ledger.port.TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.DEBIT_ACCOUNT_NOT_FOUND;
import static io.pagora.ledger.port.TransferResult.EXCEEDS_CREDITS;
import static io.pagora.ledger.port.TransferResult.EXCEEDS_DEBITS;
import static io.pagora.ledger.port.TransferResult.EXCEEDS_PENDING_TRANSFER_AMOUNT;
import static io.pagora.ledger.port.TransferResult.EXISTS;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_CODE;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_FLAGS;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_LEDGER;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_PENDING_ID;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_TIMEOUT;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
import static io.pagora.ledger.port.TransferResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
import static io.pagora.ledger.port.TransferResult.ID_ALREADY_FAILED;
import static io.pagora.ledger.port.TransferResult.ID_MUST_NOT_BE_INT_MAX;
import static io.pagora.ledger.port.TransferResult.ID_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.LEDGER_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.LINKED_EVENT_CHAIN_OPEN;
import static io.pagora.ledger.port.TransferResult.LINKED_EVENT_FAILED;
import static io.pagora.ledger.port.TransferResult.OK;
import static io.pagora.ledger.port.TransferResult.PENDING_ID_MUST_BE_DIFFERENT;
import static io.pagora.ledger.port.TransferResult.PENDING_ID_MUST_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.PENDING_ID_MUST_NOT_BE_INT_MAX;
import static io.pagora.ledger.port.TransferResult.PENDING_ID_MUST_NOT_BE_ZERO;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_ALREADY_POSTED;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_ALREADY_VOIDED;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_EXPIRED;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CODE;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_LEDGER;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_NOT_FOUND;
import static io.pagora.ledger.port.TransferResult.PENDING_TRANSFER_NOT_PENDING;
import static io.pagora.ledger.port.TransferResult.TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;
import static io.pagora.ledger.port.TransferResult.TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.BatchTooLargeException;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import io.pagora.testing.ledger.LedgerFixture;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ledger contract: what every {@link Ledger} backend must do, stated as executable examples of
 * TigerBeetle 0.16.30's semantics (the port's definition). Subclasses run it against one backend each.
 *
 * <p>The suite proves, for the backend under test:
 * <ul>
 *   <li>every account and transfer result code the platform can produce, each for the reason and with
 *       the precedence TigerBeetle has, and that a refused event changes nothing;
 *   <li>idempotency: an identical retry answers {@code EXISTS} and moves no money again, a retry with
 *       different fields answers the first differing {@code EXISTS_WITH_DIFFERENT_*}, and a transfer id
 *       that failed for a transient reason is refused for good ({@code ID_ALREADY_FAILED});
 *   <li>linked chains commit or fail as a whole, an open chain fails, and results are dense, one per
 *       event, in request order;
 *   <li>two-phase transfers: limits count pending amounts, posts (full, partial, zero) and voids move
 *       exactly what TigerBeetle moves, a resolved pending transfer cannot be resolved again, even by 16
 *       concurrent racers, and a pending transfer expires by itself after its timeout;
 *   <li>request size: {@value Ledger#BATCH_SIZE_MAX} events are accepted, one more is refused whole;
 * </ul>
 *
 * Every test that moves money ends with {@link MoneyInvariants}: over the accounts the test created,
 * debits equal credits per ledger and no limited account is over its limit.
 * (The PIX settlement layer on top of the port has its own contract, in the settlement module.)
 *
 * <p>The tests are grouped by topic in {@link Nested} classes: {@link Accounts}, {@link Transfers}
 * (single-phase, balances, limits), {@link TwoPhase} (pending, post, void, expiry), {@link LinkedChains},
 * {@link FailedIds} (retries and idempotency, ids burned by a failure), {@link Concurrency} and
 * {@link RequestSize}; the fixtures and helpers they share, and the hooks a subclass uses
 * ({@link #expiryScenario}), stay in this class, where a backend's own extra tests go too.
 *
 * <p>See {@link LedgerFixture} for the world each test works in.
 */
public abstract class LedgerContract extends LedgerFixture {

    /**
     * Creating and reading accounts: fields, dense results, validation and its precedence, lookups and the
     * account walk.
     */
    @Nested
    @DisplayName("accounts")
    class Accounts {

        @Test
        @DisplayName("a created account can be looked up with all its fields and zero balances")
        void createdAccountIsLookedUpWithZeroBalances() {
            NewAccount definition = new NewAccount(newId(), LEDGER, 42, DEBITS_LIMITED, newId(), 64, 32);
            assertThat(ledger.createAccounts(List.of(definition))).containsExactly(AccountResult.OK);
            track(definition.id());

            Account account = lookupAccount(definition.id());
            assertThat(account.id()).isEqualTo(definition.id());
            assertThat(account.ledger()).isEqualTo(LEDGER);
            assertThat(account.code()).isEqualTo(42);
            assertThat(account.flags()).isEqualTo(DEBITS_LIMITED);
            assertThat(account.userData128()).isEqualTo(definition.userData128());
            assertThat(account.userData64()).isEqualTo(64);
            assertThat(account.userData32()).isEqualTo(32);
            assertThat(balancesOf(account)).isEqualTo(new Balances(0, 0, 0, 0));
            assertThat(account.timestamp()).isPositive();
        }

        @Test
        @DisplayName("account lookups answer only existing accounts, in request order")
        void accountLookupSkipsUnknownIdsAndKeepsOrder() {
            Id128 a = account(NO_LIMIT);
            Id128 b = account(NO_LIMIT);
            assertThat(ledger.lookupAccounts(List.of(b, newId(), a)).stream().map(Account::id))
                    .containsExactly(b, a);
            assertThat(ledger.lookupAccounts(List.of())).isEmpty();
        }

        @Test
        @DisplayName(
                "a ledger's account set is walked in creation order, a bounded page at a time, other ledgers left out")
        void accountQueryWalksOneLedgersAccountsInCreationOrder() {
            int walked =
                    100_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(1_000_000);
            List<Id128> created = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                created.add(account(walked, NO_LIMIT));
                account(walked + 1, NO_LIMIT);
            }

            List<Id128> seen = new java.util.ArrayList<>();
            long after = 0;
            for (int page = 0; page < 10; page++) {
                List<Account> accounts = ledger.queryAccounts(walked, after, 2);
                assertThat(accounts)
                        .hasSizeLessThanOrEqualTo(2)
                        .allSatisfy(a -> assertThat(a.ledger()).isEqualTo(walked));
                accounts.forEach(a -> seen.add(a.id()));
                if (accounts.size() < 2) {
                    break;
                }
                after = accounts.getLast().timestamp();
            }

            assertThat(seen).containsExactlyElementsOf(created);
            assertThat(ledger.queryAccounts(walked, 0, 8189)).hasSize(5);
            assertThat(ledger.queryAccounts(walked, Long.MAX_VALUE - 1, 1)).isEmpty();
        }

        @Test
        @DisplayName("account results are dense: one per event, in request order, OK included")
        void accountResultsAreDenseAndOrdered() {
            Id128 a = newId();
            Id128 b = newId();
            List<AccountResult> results = ledger.createAccounts(List.of(
                    NewAccount.of(a, LEDGER, CODE, NO_LIMIT),
                    NewAccount.of(Id128.ZERO, LEDGER, CODE, NO_LIMIT),
                    NewAccount.of(b, LEDGER, CODE, NO_LIMIT),
                    NewAccount.of(newId(), 0, CODE, NO_LIMIT)));
            assertThat(results)
                    .containsExactly(
                            AccountResult.OK,
                            AccountResult.ID_MUST_NOT_BE_ZERO,
                            AccountResult.OK,
                            AccountResult.LEDGER_MUST_NOT_BE_ZERO);
            assertThat(ledger.createAccounts(List.of())).isEmpty();
        }

        static Stream<Arguments> invalidAccounts() {
            return Stream.of(
                    Arguments.of(AccountResult.ID_MUST_NOT_BE_ZERO, NewAccount.of(Id128.ZERO, LEDGER, CODE, NO_LIMIT)),
                    Arguments.of(
                            AccountResult.ID_MUST_NOT_BE_INT_MAX, NewAccount.of(Id128.MAX, LEDGER, CODE, NO_LIMIT)),
                    Arguments.of(
                            AccountResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE,
                            NewAccount.of(newId(), LEDGER, CODE, DEBITS_LIMITED | CREDITS_LIMITED)),
                    Arguments.of(AccountResult.LEDGER_MUST_NOT_BE_ZERO, NewAccount.of(newId(), 0, CODE, NO_LIMIT)),
                    Arguments.of(AccountResult.CODE_MUST_NOT_BE_ZERO, NewAccount.of(newId(), LEDGER, 0, NO_LIMIT)),
                    // Precedence: the id first, then the flags, then the ledger, then the code.
                    Arguments.of(
                            AccountResult.ID_MUST_NOT_BE_ZERO,
                            NewAccount.of(Id128.ZERO, 0, 0, DEBITS_LIMITED | CREDITS_LIMITED)),
                    Arguments.of(
                            AccountResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE,
                            NewAccount.of(newId(), 0, 0, DEBITS_LIMITED | CREDITS_LIMITED)),
                    Arguments.of(AccountResult.LEDGER_MUST_NOT_BE_ZERO, NewAccount.of(newId(), 0, 0, NO_LIMIT)));
        }

        @ParameterizedTest(name = "{0}: {1}")
        @MethodSource("invalidAccounts")
        @DisplayName("an invalid account is refused with the first failing check's code, and is not created")
        void invalidAccountIsRefused(AccountResult expected, NewAccount account) {
            assertThat(ledger.createAccounts(List.of(account))).containsExactly(expected);
            if (!account.id().isZero() && !account.id().isMax()) {
                assertThat(ledger.lookupAccounts(List.of(account.id()))).isEmpty();
            }
        }
    }

    /**
     * Single-phase transfers: what they move and store, dense results, validation and its precedence, and
     * balance limits (pending amounts included).
     */
    @Nested
    @DisplayName("transfers: single-phase transfers, balances and limits")
    class Transfers {

        @Test
        @DisplayName("a plain transfer moves its amount into posted balances, and is looked up as sent")
        void plainTransferPostsAtOnce() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            NewTransfer transfer = tx().debit(from)
                    .credit(to)
                    .amount(250)
                    .userData(new Id128(1, 2), 3, 4)
                    .code(9)
                    .build();
            assertThat(create(transfer)).isEqualTo(OK);

            assertThat(balances(from)).isEqualTo(new Balances(0, 250, 0, 0));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 250));
            Transfer stored = lookupTransfer(transfer.id());
            assertThat(stored.debitAccountId()).isEqualTo(from);
            assertThat(stored.creditAccountId()).isEqualTo(to);
            assertThat(stored.amount()).isEqualTo(250);
            assertThat(stored.pendingId()).isEqualTo(Id128.ZERO);
            assertThat(stored.userData128()).isEqualTo(new Id128(1, 2));
            assertThat(stored.userData64()).isEqualTo(3);
            assertThat(stored.userData32()).isEqualTo(4);
            assertThat(stored.timeoutSeconds()).isZero();
            assertThat(stored.ledger()).isEqualTo(LEDGER);
            assertThat(stored.code()).isEqualTo(9);
            assertThat(stored.flags()).isEqualTo(TransferFlags.NONE);
            assertThat(stored.timestamp()).isGreaterThan(lookupAccount(to).timestamp());
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "transfer lookups answer only existing transfers, in request order, with increasing timestamps per batch")
        void transferLookupSkipsUnknownIdsAndKeepsOrder() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            NewTransfer first = tx().debit(from).credit(to).amount(1).build();
            NewTransfer second = tx().debit(from).credit(to).amount(2).build();
            NewTransfer third = tx().debit(from).credit(to).amount(3).build();
            assertThat(ledger.createTransfers(List.of(first, second, third))).containsExactly(OK, OK, OK);

            List<Transfer> found = ledger.lookupTransfers(List.of(third.id(), newId(), first.id(), second.id()));
            assertThat(found.stream().map(Transfer::id)).containsExactly(third.id(), first.id(), second.id());
            assertThat(found.get(1).timestamp()).isLessThan(found.get(2).timestamp());
            assertThat(found.get(2).timestamp()).isLessThan(found.get(0).timestamp());
            assertThat(ledger.lookupTransfers(List.of())).isEmpty();
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("transfer results are dense: one per event, in request order; failures in between change nothing")
        void transferResultsAreDenseAndOrdered() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            List<TransferResult> results = ledger.createTransfers(List.of(
                    tx().debit(from).credit(to).amount(1).build(),
                    tx().debit(from).credit(to).amount(2).ledger(0).build(),
                    tx().debit(from).credit(to).amount(4).build(),
                    tx().debit(from).credit(from).amount(8).build(),
                    tx().debit(from).credit(to).amount(16).build()));
            assertThat(results).containsExactly(OK, LEDGER_MUST_NOT_BE_ZERO, OK, ACCOUNTS_MUST_BE_DIFFERENT, OK);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 21));
            assertThat(ledger.createTransfers(List.of())).isEmpty();
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("zero amounts are allowed (0.16.30): plain and pending transfers of 0 succeed and move nothing")
        void zeroAmountsAreAllowed() {
            Id128 from = account(DEBITS_LIMITED);
            Id128 to = account(NO_LIMIT);
            NewTransfer pending =
                    tx().debit(from).credit(to).amount(0).pending(LONG_TIMEOUT).build();
            assertThat(ledger.createTransfers(
                            List.of(tx().debit(from).credit(to).amount(0).build(), pending)))
                    .containsExactly(OK, OK);
            assertThat(create(NewTransfer.post(newId(), pending.id(), 0))).isEqualTo(OK);
            assertThat(balances(from)).isEqualTo(new Balances(0, 0, 0, 0));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 0));
            assertMoneyInvariants();
        }

        static Stream<Fault> plainTransferFaults() {
            return Stream.of(
                    new Fault("id zero", ID_MUST_NOT_BE_ZERO, (s, t) -> t.id(Id128.ZERO)),
                    new Fault("id all ones", ID_MUST_NOT_BE_INT_MAX, (s, t) -> t.id(Id128.MAX)),
                    new Fault("debit account zero", DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO, (s, t) -> t.debit(Id128.ZERO)),
                    new Fault(
                            "debit account all ones",
                            DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX,
                            (s, t) -> t.debit(Id128.MAX)),
                    new Fault(
                            "credit account zero", CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO, (s, t) -> t.credit(Id128.ZERO)),
                    new Fault(
                            "credit account all ones",
                            CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX,
                            (s, t) -> t.credit(Id128.MAX)),
                    new Fault("debit = credit", ACCOUNTS_MUST_BE_DIFFERENT, (s, t) -> t.credit(s.from())),
                    new Fault(
                            "pending id on a plain transfer",
                            PENDING_ID_MUST_BE_ZERO,
                            (s, t) -> t.pendingId(s.plainTransfer())),
                    new Fault(
                            "pending id on a pending transfer",
                            PENDING_ID_MUST_BE_ZERO,
                            (s, t) -> t.pending(LONG_TIMEOUT).pendingId(newId())),
                    new Fault(
                            "timeout on a plain transfer",
                            TIMEOUT_RESERVED_FOR_PENDING_TRANSFER,
                            (s, t) -> t.timeout(5)),
                    new Fault("ledger zero", LEDGER_MUST_NOT_BE_ZERO, (s, t) -> t.ledger(0)),
                    new Fault("code zero", CODE_MUST_NOT_BE_ZERO, (s, t) -> t.code(0)),
                    new Fault("unknown debit account", DEBIT_ACCOUNT_NOT_FOUND, (s, t) -> t.debit(newId())),
                    new Fault("unknown credit account", CREDIT_ACCOUNT_NOT_FOUND, (s, t) -> t.credit(newId())),
                    new Fault(
                            "unknown pending debit account",
                            DEBIT_ACCOUNT_NOT_FOUND,
                            (s, t) -> t.pending(LONG_TIMEOUT).debit(newId())),
                    new Fault(
                            "accounts on two ledgers",
                            ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER,
                            (s, t) -> t.credit(s.onOtherLedger())),
                    new Fault(
                            "transfer ledger differs from the accounts'",
                            TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS,
                            (s, t) -> t.ledger(OTHER_LEDGER)),
                    new Fault(
                            "debit beyond a debits_must_not_exceed_credits account's credits",
                            EXCEEDS_CREDITS,
                            (s, t) -> t.debit(s.emptyDebitLimited())),
                    new Fault(
                            "pending debit beyond a debits_must_not_exceed_credits account's credits",
                            EXCEEDS_CREDITS,
                            (s, t) -> t.debit(s.emptyDebitLimited()).pending(LONG_TIMEOUT)),
                    new Fault(
                            "credit beyond a credits_must_not_exceed_debits account's debits",
                            EXCEEDS_DEBITS,
                            (s, t) -> t.credit(s.emptyCreditLimited())),
                    new Fault(
                            "pending credit beyond a credits_must_not_exceed_debits account's debits",
                            EXCEEDS_DEBITS,
                            (s, t) -> t.credit(s.emptyCreditLimited()).pending(LONG_TIMEOUT)),
                    new Fault(
                            "both limits exceeded: the debit side is checked first",
                            EXCEEDS_CREDITS,
                            (s, t) -> t.debit(s.emptyDebitLimited()).credit(s.emptyCreditLimited())));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("plainTransferFaults")
        @DisplayName("an invalid plain or pending transfer is refused with its code and moves nothing")
        void invalidTransferIsRefused(Fault fault) {
            Scene scene = scene();
            Map<Id128, Balances> before = balancesOfAll();
            NewTransfer transfer = fault.apply()
                    .apply(scene, tx().debit(scene.from()).credit(scene.to()).amount(10))
                    .build();

            assertThat(create(transfer)).as(fault.description()).isEqualTo(fault.expected());
            assertThat(balancesOfAll()).isEqualTo(before);
            if (!transfer.id().isZero() && !transfer.id().isMax()) {
                assertThat(ledger.lookupTransfers(List.of(transfer.id()))).isEmpty();
            }
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("transfer checks apply in TigerBeetle's order; non-transient failures leave the id usable")
        void transferChecksHaveTigerBeetlesPrecedence() {
            Id128 a1 = account(NO_LIMIT);
            Id128 a3 = account(NO_LIMIT);
            Id128 onOtherLedger = account(OTHER_LEDGER, NO_LIMIT);
            Id128 limitedDebits = account(DEBITS_LIMITED);
            Id128 limitedCredits = account(CREDITS_LIMITED);
            Id128 unknown8 = newId();
            Id128 unknown9 = newId();
            Id128 t1 = newId();

            // Everything is wrong at first; each step fixes the failing field, exposing the next check.
            Tx t = tx().id(Id128.ZERO)
                    .debit(Id128.ZERO)
                    .credit(Id128.ZERO)
                    .amount(9)
                    .pendingId(newId())
                    .ledger(0)
                    .code(0)
                    .flags(TransferFlags.PENDING);
            assertThat(create(t.build())).isEqualTo(ID_MUST_NOT_BE_ZERO);
            assertThat(create(t.id(Id128.MAX).build())).isEqualTo(ID_MUST_NOT_BE_INT_MAX);
            assertThat(create(t.id(t1).build())).isEqualTo(DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO);
            assertThat(create(t.debit(Id128.MAX).build())).isEqualTo(DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX);
            assertThat(create(t.debit(unknown8).build())).isEqualTo(CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO);
            assertThat(create(t.credit(Id128.MAX).build())).isEqualTo(CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX);
            assertThat(create(t.credit(unknown8).build())).isEqualTo(ACCOUNTS_MUST_BE_DIFFERENT);
            assertThat(create(t.credit(unknown9).build())).isEqualTo(PENDING_ID_MUST_BE_ZERO);
            assertThat(create(t.pendingId(Id128.ZERO)
                            .flags(TransferFlags.NONE)
                            .timeout(1)
                            .build()))
                    .isEqualTo(TIMEOUT_RESERVED_FOR_PENDING_TRANSFER);
            assertThat(create(t.timeout(0).build())).isEqualTo(LEDGER_MUST_NOT_BE_ZERO);
            assertThat(create(t.ledger(LEDGER).build())).isEqualTo(CODE_MUST_NOT_BE_ZERO);
            // Transient: depends on ledger state, and burns the id.
            assertThat(create(t.code(CODE).build())).isEqualTo(DEBIT_ACCOUNT_NOT_FOUND);
            assertThat(create(t.debit(a1).credit(a3).build())).isEqualTo(ID_ALREADY_FAILED);

            Tx t2 = tx().debit(a1).credit(unknown9).amount(9);
            assertThat(create(t2.build())).isEqualTo(CREDIT_ACCOUNT_NOT_FOUND);
            assertThat(create(t2.credit(a3).build())).isEqualTo(ID_ALREADY_FAILED);

            Tx t3 = tx().debit(a1).credit(onOtherLedger).amount(9);
            assertThat(create(t3.build())).isEqualTo(ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER);
            assertThat(create(t3.credit(a3).ledger(OTHER_LEDGER).build()))
                    .isEqualTo(TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS);
            assertThat(create(t3.ledger(LEDGER)
                            .debit(limitedDebits)
                            .credit(limitedCredits)
                            .build()))
                    .isEqualTo(EXCEEDS_CREDITS);
            assertThat(create(t3.debit(a1).credit(a3).build())).isEqualTo(ID_ALREADY_FAILED);

            Tx t4 = tx().debit(a1).credit(limitedCredits).amount(9);
            assertThat(create(t4.build())).isEqualTo(EXCEEDS_DEBITS);
            assertThat(create(t4.credit(a3).build())).isEqualTo(ID_ALREADY_FAILED);

            // A non-transient failure does not burn the id: the corrected transfer goes through.
            Tx t5 = tx().debit(a1).credit(a3).amount(9).code(0);
            assertThat(create(t5.build())).isEqualTo(CODE_MUST_NOT_BE_ZERO);
            assertThat(create(t5.code(CODE).build())).isEqualTo(OK);
            assertThat(balances(a3)).isEqualTo(new Balances(0, 0, 0, 9));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a pending transfer reserves its amount in pending balances, and limits count reservations")
        void limitsCountPendingAmounts() {
            Id128 payer = funded(100);
            Id128 payee = account(NO_LIMIT);
            NewTransfer hold = tx().debit(payer)
                    .credit(payee)
                    .amount(60)
                    .pending(LONG_TIMEOUT)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            assertThat(balances(payer)).isEqualTo(new Balances(60, 0, 0, 100));
            assertThat(balances(payee)).isEqualTo(new Balances(0, 0, 60, 0));

            assertThat(create(tx().debit(payer).credit(payee).amount(41).build()))
                    .isEqualTo(EXCEEDS_CREDITS);
            assertThat(create(tx().debit(payer)
                            .credit(payee)
                            .amount(41)
                            .pending(LONG_TIMEOUT)
                            .build()))
                    .isEqualTo(EXCEEDS_CREDITS);
            assertThat(create(tx().debit(payer).credit(payee).amount(40).build()))
                    .isEqualTo(OK);
            assertThat(lookupAccount(payer).creditBalanceAvailable()).isZero();
            assertThat(create(tx().debit(payer).credit(payee).amount(1).build()))
                    .isEqualTo(EXCEEDS_CREDITS);

            // Voiding the reservation makes its amount available again.
            assertThat(create(NewTransfer.voidPending(newId(), hold.id()))).isEqualTo(OK);
            assertThat(balances(payer)).isEqualTo(new Balances(0, 40, 0, 100));
            assertThat(create(tx().debit(payer).credit(payee).amount(60).build()))
                    .isEqualTo(OK);
            assertThat(balances(payer)).isEqualTo(new Balances(0, 100, 0, 100));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("credits_must_not_exceed_debits counts pending credits too")
        void creditLimitsCountPendingAmounts() {
            Id128 liability = account(CREDITS_LIMITED);
            Id128 other = account(NO_LIMIT);
            assertThat(create(tx().debit(liability).credit(other).amount(100).build()))
                    .isEqualTo(OK);
            NewTransfer hold = tx().debit(other)
                    .credit(liability)
                    .amount(70)
                    .pending(LONG_TIMEOUT)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            assertThat(create(tx().debit(other).credit(liability).amount(31).build()))
                    .isEqualTo(EXCEEDS_DEBITS);
            assertThat(create(tx().debit(other).credit(liability).amount(30).build()))
                    .isEqualTo(OK);
            assertThat(balances(liability)).isEqualTo(new Balances(0, 100, 70, 30));
            assertThat(create(NewTransfer.post(newId(), hold.id(), 70))).isEqualTo(OK);
            assertThat(balances(liability)).isEqualTo(new Balances(0, 100, 0, 100));
            assertMoneyInvariants();
        }
    }

    /**
     * Two-phase transfers: posting (full, partial, zero) and voiding a pending transfer, invalid resolutions,
     * resolving twice, and expiry.
     */
    @Nested
    @DisplayName("two-phase transfers: pending, post, void and expiry")
    class TwoPhase {

        @Test
        @DisplayName(
                "a pending transfer reads back its timeout and its ledger time (epoch ns at creation): when it lapses")
        void pendingTransferReadsBackWhenItLapses() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            java.time.Instant before = java.time.Instant.now();
            assertThat(create(hold)).isEqualTo(OK);
            java.time.Instant after = java.time.Instant.now();

            Transfer stored = lookupTransfer(hold.id());
            assertThat(stored.timeoutSeconds()).isEqualTo(LONG_TIMEOUT);
            // Wall-clock time, so timestamp + timeout is an instant others can be given as a deadline (TigerBeetle's
            // cluster time may stray from this host's clock by a little).
            long slackNanos = Duration.ofSeconds(1).toNanos();
            assertThat(stored.timestamp()).isBetween(epochNanos(before) - slackNanos, epochNanos(after) + slackNanos);
            // A retry answers EXISTS and keeps the first creation's time: the timeout still runs from then.
            assertThat(create(hold)).isEqualTo(EXISTS);
            assertThat(lookupTransfer(hold.id()).timestamp()).isEqualTo(stored.timestamp());
            assertMoneyInvariants();
        }

        private static long epochNanos(java.time.Instant instant) {
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }

        @Test
        @DisplayName(
                "posting the full amount moves the reservation into posted balances; the post carries the pending's fields")
        void postFullAmount() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold = tx().debit(from)
                    .credit(to)
                    .amount(60)
                    .pending(LONG_TIMEOUT)
                    .code(7)
                    .userData(new Id128(9, 9), 99, 999)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            NewTransfer post = NewTransfer.post(newId(), hold.id(), 60);
            assertThat(create(post)).isEqualTo(OK);

            assertThat(balances(from)).isEqualTo(new Balances(0, 60, 0, 100));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 60));
            Transfer stored = lookupTransfer(post.id());
            assertThat(stored.debitAccountId()).isEqualTo(from);
            assertThat(stored.creditAccountId()).isEqualTo(to);
            assertThat(stored.amount()).isEqualTo(60);
            assertThat(stored.pendingId()).isEqualTo(hold.id());
            assertThat(stored.ledger()).isEqualTo(LEDGER);
            assertThat(stored.code()).isEqualTo(7);
            assertThat(stored.userData128()).isEqualTo(new Id128(9, 9));
            assertThat(stored.userData64()).isEqualTo(99);
            assertThat(stored.userData32()).isEqualTo(999);
            assertThat(stored.timeoutSeconds()).isZero();
            assertThat(stored.flags()).isEqualTo(TransferFlags.POST_PENDING_TRANSFER);
            assertThat(stored.timestamp())
                    .isGreaterThan(lookupTransfer(hold.id()).timestamp());
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "an account's transfers are followed a page at a time, by side, in timestamp order, posts and voids included")
        void accountTransfersFollowAnAccountsHistory() {
            Id128 account = account(NO_LIMIT);
            Id128 other = account(NO_LIMIT);
            Id128 third = account(NO_LIMIT);
            long start = lookupAccount(account).timestamp();
            NewTransfer out = tx().debit(account).credit(other).amount(100).build();
            NewTransfer in = tx().debit(third).credit(account).amount(30).build();
            NewTransfer hold = tx().debit(account)
                    .credit(third)
                    .amount(200)
                    .pending(LONG_TIMEOUT)
                    .build();
            NewTransfer unrelated = tx().debit(other).credit(third).amount(5).build();
            NewTransfer voided = NewTransfer.voidPending(newId(), hold.id());
            for (NewTransfer transfer : List.of(out, in, hold, unrelated, voided)) {
                assertThat(create(transfer)).isEqualTo(OK);
            }
            List<Id128> expected = List.of(out.id(), in.id(), hold.id(), voided.id());

            List<Id128> walked = new ArrayList<>();
            long after = start;
            for (int page = 0; page < 10; page++) {
                List<Transfer> transfers = ledger.accountTransfers(account, Ledger.Sides.BOTH, after, 2);
                assertThat(transfers).hasSizeLessThanOrEqualTo(2);
                transfers.forEach(t -> walked.add(t.id()));
                if (transfers.size() < 2) {
                    break;
                }
                after = transfers.getLast().timestamp();
            }
            assertThat(walked).as("both sides, paged").containsExactlyElementsOf(expected);

            List<Transfer> debits = ledger.accountTransfers(account, Ledger.Sides.DEBITS, start, 8189);
            assertThat(debits).extracting(Transfer::id).containsExactly(out.id(), hold.id(), voided.id());
            assertThat(debits.get(2).debitAccountId())
                    .as("a void carries its pending's accounts")
                    .isEqualTo(account);
            assertThat(debits.get(2).hasFlag(TransferFlags.VOID_PENDING_TRANSFER))
                    .isTrue();
            assertThat(ledger.accountTransfers(account, Ledger.Sides.CREDITS, start, 8189))
                    .extracting(Transfer::id)
                    .containsExactly(in.id());
            Transfer first = lookupTransfer(out.id());
            assertThat(ledger.accountTransfers(account, Ledger.Sides.BOTH, first.timestamp(), 8189))
                    .as("strictly after the timestamp given")
                    .extracting(Transfer::id)
                    .containsExactly(in.id(), hold.id(), voided.id());
            assertThat(ledger.accountTransfers(newId(), Ledger.Sides.BOTH, 0, 10))
                    .as("unknown")
                    .isEmpty();
            assertThatThrownBy(() -> ledger.accountTransfers(account, Ledger.Sides.BOTH, 0, 0))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ledger.accountTransfers(account, Ledger.Sides.BOTH, 0, 8190))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        @DisplayName("a partial post posts its amount and releases the whole reservation")
        void partialPostReleasesTheWholeReservation() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            assertThat(create(hold)).isEqualTo(OK);
            assertThat(create(NewTransfer.post(newId(), hold.id(), 25))).isEqualTo(OK);
            assertThat(balances(from)).isEqualTo(new Balances(0, 25, 0, 100));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 25));
            assertThat(lookupAccount(from).creditBalanceAvailable()).isEqualTo(75);
            assertThat(create(NewTransfer.post(newId(), hold.id(), 35)))
                    .as("the rest is gone")
                    .isEqualTo(PENDING_TRANSFER_ALREADY_POSTED);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("posting amount 0 posts nothing (0.16.30) and releases the reservation")
        void postingZeroPostsZero() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            assertThat(create(hold)).isEqualTo(OK);
            NewTransfer post = NewTransfer.post(newId(), hold.id(), 0);
            assertThat(create(post)).isEqualTo(OK);
            assertThat(balances(from)).isEqualTo(new Balances(0, 0, 0, 100));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 0));
            assertThat(lookupTransfer(post.id()).amount()).isZero();
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("voiding with amount 0 or the exact amount releases the whole reservation and moves nothing")
        void voidReleasesTheReservation() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer holdA =
                    tx().debit(from).credit(to).amount(30).pending(LONG_TIMEOUT).build();
            NewTransfer holdB =
                    tx().debit(from).credit(to).amount(20).pending(0).build();
            assertThat(ledger.createTransfers(List.of(holdA, holdB))).containsExactly(OK, OK);
            assertThat(balances(from)).isEqualTo(new Balances(50, 0, 0, 100));

            NewTransfer voidA = NewTransfer.voidPending(newId(), holdA.id());
            NewTransfer voidB = tx().flags(TransferFlags.VOID_PENDING_TRANSFER)
                    .pendingId(holdB.id())
                    .amount(20)
                    .ledger(0)
                    .code(0)
                    .build();
            assertThat(ledger.createTransfers(List.of(voidA, voidB))).containsExactly(OK, OK);
            assertThat(balances(from)).isEqualTo(new Balances(0, 0, 0, 100));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 0));
            assertThat(lookupTransfer(voidA.id()).amount())
                    .as("void 0 is recorded as the pending amount")
                    .isEqualTo(30);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a post or void may repeat the pending's accounts, ledger and code, but they must match")
        void postWithMatchingFieldsIsAccepted() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold = tx().debit(from)
                    .credit(to)
                    .amount(60)
                    .pending(LONG_TIMEOUT)
                    .code(5)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            NewTransfer post = tx().flags(TransferFlags.POST_PENDING_TRANSFER)
                    .pendingId(hold.id())
                    .debit(from)
                    .credit(to)
                    .amount(60)
                    .ledger(LEDGER)
                    .code(5)
                    .build();
            assertThat(create(post)).isEqualTo(OK);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 60));
            assertMoneyInvariants();
        }

        static Stream<Fault> postAndVoidFaults() {
            int post = TransferFlags.POST_PENDING_TRANSFER;
            int voids = TransferFlags.VOID_PENDING_TRANSFER;
            return Stream.of(
                    new Fault("post and void", FLAGS_ARE_MUTUALLY_EXCLUSIVE, (s, t) -> t.flags(post | voids)),
                    new Fault(
                            "post and pending",
                            FLAGS_ARE_MUTUALLY_EXCLUSIVE,
                            (s, t) -> t.flags(post | TransferFlags.PENDING)),
                    new Fault(
                            "void and pending",
                            FLAGS_ARE_MUTUALLY_EXCLUSIVE,
                            (s, t) -> t.flags(voids | TransferFlags.PENDING)),
                    new Fault("pending id zero", PENDING_ID_MUST_NOT_BE_ZERO, (s, t) -> t.pendingId(Id128.ZERO)),
                    new Fault("pending id all ones", PENDING_ID_MUST_NOT_BE_INT_MAX, (s, t) -> t.pendingId(Id128.MAX)),
                    new Fault(
                            "pending id = own id",
                            PENDING_ID_MUST_BE_DIFFERENT,
                            (s, t) -> t.pendingId(t.build().id())),
                    new Fault("timeout on a post", TIMEOUT_RESERVED_FOR_PENDING_TRANSFER, (s, t) -> t.timeout(1)),
                    new Fault("unknown pending transfer", PENDING_TRANSFER_NOT_FOUND, (s, t) -> t.pendingId(newId())),
                    new Fault(
                            "target is a plain transfer",
                            PENDING_TRANSFER_NOT_PENDING,
                            (s, t) -> t.pendingId(s.plainTransfer())),
                    new Fault(
                            "other debit account",
                            PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID,
                            (s, t) -> t.debit(s.to())),
                    new Fault(
                            "other credit account",
                            PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID,
                            (s, t) -> t.credit(s.from())),
                    new Fault("other ledger", PENDING_TRANSFER_HAS_DIFFERENT_LEDGER, (s, t) -> t.ledger(OTHER_LEDGER)),
                    new Fault("other code", PENDING_TRANSFER_HAS_DIFFERENT_CODE, (s, t) -> t.code(CODE + 1)),
                    new Fault("post more than pending", EXCEEDS_PENDING_TRANSFER_AMOUNT, (s, t) -> t.amount(61)),
                    new Fault(
                            "void more than pending",
                            EXCEEDS_PENDING_TRANSFER_AMOUNT,
                            (s, t) -> t.flags(voids).amount(61)),
                    new Fault(
                            "void less than pending",
                            PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT,
                            (s, t) -> t.flags(voids).amount(59)),
                    // Precedence: flags before ids, ids before the lookup, accounts before amounts.
                    new Fault(
                            "both flags and no pending id",
                            FLAGS_ARE_MUTUALLY_EXCLUSIVE,
                            (s, t) -> t.flags(post | voids).pendingId(Id128.ZERO)),
                    new Fault(
                            "no pending id and a timeout",
                            PENDING_ID_MUST_NOT_BE_ZERO,
                            (s, t) -> t.pendingId(Id128.ZERO).timeout(1)),
                    new Fault(
                            "other debit account and too much",
                            PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID,
                            (s, t) -> t.debit(s.to()).amount(1000)),
                    new Fault(
                            "other code and too much",
                            PENDING_TRANSFER_HAS_DIFFERENT_CODE,
                            (s, t) -> t.code(CODE + 1).amount(1000)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("postAndVoidFaults")
        @DisplayName("an invalid post or void is refused with its code, and the transfer stays pending")
        void invalidPostOrVoidIsRefused(Fault fault) {
            Scene scene = scene();
            NewTransfer hold = tx().debit(scene.from())
                    .credit(scene.to())
                    .amount(60)
                    .pending(LONG_TIMEOUT)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            Map<Id128, Balances> before = balancesOfAll();
            Tx valid = tx().flags(TransferFlags.POST_PENDING_TRANSFER)
                    .pendingId(hold.id())
                    .amount(60)
                    .ledger(0)
                    .code(0);

            NewTransfer faulty = fault.apply().apply(scene, valid).build();
            assertThat(create(faulty)).as(fault.description()).isEqualTo(fault.expected());
            assertThat(balancesOfAll()).isEqualTo(before);
            assertThat(create(NewTransfer.post(newId(), hold.id(), 60)))
                    .as("still pending")
                    .isEqualTo(OK);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a posted transfer cannot be posted or voided again: PENDING_TRANSFER_ALREADY_POSTED")
        void alreadyPosted() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            assertThat(ledger.createTransfers(List.of(hold, NewTransfer.post(newId(), hold.id(), 60))))
                    .containsExactly(OK, OK);
            assertThat(ledger.createTransfers(List.of(
                            NewTransfer.post(newId(), hold.id(), 60), NewTransfer.voidPending(newId(), hold.id()))))
                    .containsExactly(PENDING_TRANSFER_ALREADY_POSTED, PENDING_TRANSFER_ALREADY_POSTED);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 60));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a voided transfer cannot be posted or voided again: PENDING_TRANSFER_ALREADY_VOIDED")
        void alreadyVoided() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            assertThat(ledger.createTransfers(List.of(hold, NewTransfer.voidPending(newId(), hold.id()))))
                    .containsExactly(OK, OK);
            assertThat(ledger.createTransfers(List.of(
                            NewTransfer.post(newId(), hold.id(), 60), NewTransfer.voidPending(newId(), hold.id()))))
                    .containsExactly(PENDING_TRANSFER_ALREADY_VOIDED, PENDING_TRANSFER_ALREADY_VOIDED);
            assertThat(balances(from)).isEqualTo(new Balances(0, 0, 0, 100));
            assertMoneyInvariants();
        }

        @Test
        @Timeout(30)
        @DisplayName(
                "a pending transfer expires its timeout after creation: reservation released, nothing posted, post/void EXPIRED")
        void pendingTransferExpires() throws InterruptedException {
            expiryScenario(() -> {}, true);
        }
    }

    /** Linked chains of accounts and of transfers: all or nothing, EXISTS breaks a chain, an open chain fails. */
    @Nested
    @DisplayName("linked chains")
    class LinkedChains {

        @Test
        @DisplayName("a linked chain of accounts is created whole, or not at all when one member fails")
        void linkedAccountsAreAllOrNothing() {
            Id128 existing = account(NO_LIMIT);
            Id128 a = newId();
            Id128 b = newId();
            Id128 c = newId();
            Id128 d = newId();
            Id128 e = newId();
            List<AccountResult> results = ledger.createAccounts(List.of(
                    NewAccount.of(a, LEDGER, CODE, AccountFlags.LINKED),
                    NewAccount.of(b, LEDGER, CODE, AccountFlags.LINKED),
                    NewAccount.of(existing, LEDGER, CODE, DEBITS_LIMITED), // different flags: breaks the chain
                    NewAccount.of(c, LEDGER, CODE, NO_LIMIT), // after the chain: unaffected
                    NewAccount.of(d, LEDGER, CODE, AccountFlags.LINKED),
                    NewAccount.of(e, LEDGER, CODE, NO_LIMIT)));
            assertThat(results)
                    .containsExactly(
                            AccountResult.LINKED_EVENT_FAILED,
                            AccountResult.LINKED_EVENT_FAILED,
                            AccountResult.EXISTS_WITH_DIFFERENT_FLAGS,
                            AccountResult.OK,
                            AccountResult.OK,
                            AccountResult.OK);
            assertThat(ledger.lookupAccounts(List.of(a, b, c, d, e)).stream().map(Account::id))
                    .containsExactly(c, d, e);

            // The rolled-back members were not burned: they can be created now.
            assertThat(ledger.createAccounts(List.of(NewAccount.of(a, LEDGER, CODE, NO_LIMIT))))
                    .containsExactly(AccountResult.OK);
        }

        @Test
        @DisplayName(
                "an identical account in a linked chain answers EXISTS, which breaks the chain (TigerBeetle semantics)")
        void existsBreaksAnAccountChain() {
            Id128 existing = newId();
            assertThat(ledger.createAccounts(List.of(
                            NewAccount.of(existing, LEDGER, CODE, AccountFlags.LINKED),
                            NewAccount.of(newId(), LEDGER, CODE, NO_LIMIT))))
                    .containsExactly(AccountResult.OK, AccountResult.OK);
            Id128 fresh = newId();
            assertThat(ledger.createAccounts(List.of(
                            NewAccount.of(existing, LEDGER, CODE, AccountFlags.LINKED),
                            NewAccount.of(fresh, LEDGER, CODE, NO_LIMIT))))
                    .containsExactly(AccountResult.EXISTS, AccountResult.LINKED_EVENT_FAILED);
            assertThat(ledger.lookupAccounts(List.of(fresh))).isEmpty();
        }

        @Test
        @DisplayName(
                "a linked chain of accounts left open at the end of the request fails with LINKED_EVENT_CHAIN_OPEN")
        void openAccountChainFails() {
            Id128 a = newId();
            Id128 b = newId();
            Id128 c = newId();
            assertThat(ledger.createAccounts(List.of(NewAccount.of(a, LEDGER, CODE, AccountFlags.LINKED))))
                    .containsExactly(AccountResult.LINKED_EVENT_CHAIN_OPEN);
            assertThat(ledger.createAccounts(List.of(
                            NewAccount.of(a, LEDGER, CODE, NO_LIMIT),
                            NewAccount.of(b, LEDGER, CODE, AccountFlags.LINKED),
                            NewAccount.of(c, LEDGER, CODE, AccountFlags.LINKED))))
                    .containsExactly(
                            AccountResult.OK, AccountResult.LINKED_EVENT_FAILED, AccountResult.LINKED_EVENT_CHAIN_OPEN);
            assertThat(ledger.lookupAccounts(List.of(a, b, c)).stream().map(Account::id))
                    .containsExactly(a);
        }

        @Test
        @DisplayName("an open account chain that already failed still ends with LINKED_EVENT_CHAIN_OPEN")
        void brokenOpenAccountChain() {
            Id128 a = newId();
            Id128 c = newId();
            assertThat(ledger.createAccounts(List.of(
                            NewAccount.of(a, LEDGER, CODE, AccountFlags.LINKED),
                            NewAccount.of(newId(), 0, CODE, AccountFlags.LINKED),
                            NewAccount.of(c, LEDGER, CODE, AccountFlags.LINKED))))
                    .containsExactly(
                            AccountResult.LINKED_EVENT_FAILED,
                            AccountResult.LEDGER_MUST_NOT_BE_ZERO,
                            AccountResult.LINKED_EVENT_CHAIN_OPEN);
            assertThat(ledger.lookupAccounts(List.of(a, c))).isEmpty();
        }

        @Test
        @DisplayName("a linked chain of transfers commits as a whole, and later members see earlier members' effects")
        void linkedChainCommitsWhole() {
            Id128 bank = issuer();
            Id128 customer = account(DEBITS_LIMITED);
            Id128 merchant = account(NO_LIMIT);
            // Fund then spend in one chain: the spend only fits because the funding committed before it.
            List<TransferResult> results = ledger.createTransfers(List.of(
                    tx().debit(bank).credit(customer).amount(50).linked().build(),
                    tx().debit(customer).credit(merchant).amount(30).linked().build(),
                    tx().debit(customer).credit(merchant).amount(20).build()));
            assertThat(results).containsExactly(OK, OK, OK);
            assertThat(balances(customer)).isEqualTo(new Balances(0, 50, 0, 50));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "a broken chain rolls back: the failing event has its code, every other member LINKED_EVENT_FAILED, balances untouched")
        void brokenChainRollsBack() {
            Id128 bank = issuer();
            Id128 customer = account(DEBITS_LIMITED);
            Id128 merchant = account(NO_LIMIT);
            fund(customer, 10);
            Map<Id128, Balances> before = balancesOfAll();
            NewTransfer first =
                    tx().debit(bank).credit(customer).amount(50).linked().build();
            NewTransfer second = tx().debit(customer)
                    .credit(merchant)
                    .amount(30)
                    .pending(LONG_TIMEOUT)
                    .linked()
                    .build();
            NewTransfer failing =
                    tx().debit(customer).credit(merchant).amount(31).linked().build();
            NewTransfer last = tx().debit(customer).credit(merchant).amount(1).build();
            NewTransfer independent =
                    tx().debit(bank).credit(merchant).amount(7).build();

            assertThat(ledger.createTransfers(List.of(first, second, failing, last, independent)))
                    .containsExactly(
                            LINKED_EVENT_FAILED, LINKED_EVENT_FAILED, EXCEEDS_CREDITS, LINKED_EVENT_FAILED, OK);

            Map<Id128, Balances> after = balancesOfAll();
            assertThat(after.get(customer)).isEqualTo(before.get(customer));
            assertThat(after.get(merchant)).isEqualTo(new Balances(0, 0, 0, 7));
            assertThat(ledger.lookupTransfers(List.of(first.id(), second.id(), failing.id(), last.id())))
                    .as("nothing of the chain exists")
                    .isEmpty();

            // Only the failing event's id is burned; the rolled-back members can be sent again.
            assertThat(create(first.withFlags(TransferFlags.NONE))).isEqualTo(OK);
            assertThat(create(failing.withFlags(TransferFlags.NONE))).isEqualTo(ID_ALREADY_FAILED);
            assertThat(create(last)).isEqualTo(OK);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "a chain whose first member fails fails whole, and a later chain in the same request is independent")
        void chainFailingAtItsFirstMember() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            List<TransferResult> results = ledger.createTransfers(List.of(
                    tx().debit(from).credit(to).amount(1).code(0).linked().build(),
                    tx().debit(from).credit(to).amount(2).linked().build(),
                    tx().debit(from).credit(to).amount(4).build(),
                    tx().debit(from).credit(to).amount(8).linked().build(),
                    tx().debit(from).credit(to).amount(16).build()));
            assertThat(results)
                    .containsExactly(CODE_MUST_NOT_BE_ZERO, LINKED_EVENT_FAILED, LINKED_EVENT_FAILED, OK, OK);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 24));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("an identical transfer in a chain answers EXISTS, which breaks the chain (TigerBeetle semantics)")
        void existsBreaksATransferChain() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            NewTransfer existing =
                    tx().debit(from).credit(to).amount(5).linked().build();
            NewTransfer fresh = tx().debit(from).credit(to).amount(6).build();
            assertThat(ledger.createTransfers(List.of(
                            existing, tx().debit(from).credit(to).amount(1).build())))
                    .containsExactly(OK, OK);
            assertThat(ledger.createTransfers(List.of(existing, fresh))).containsExactly(EXISTS, LINKED_EVENT_FAILED);
            assertThat(ledger.lookupTransfers(List.of(fresh.id()))).isEmpty();
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 6));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a chain left open at the end of the request fails: LINKED_EVENT_CHAIN_OPEN for its last event")
        void openChainFails() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            NewTransfer alone = tx().debit(from).credit(to).amount(1).linked().build();
            assertThat(ledger.createTransfers(List.of(alone))).containsExactly(LINKED_EVENT_CHAIN_OPEN);

            NewTransfer ok = tx().debit(from).credit(to).amount(2).build();
            NewTransfer member = tx().debit(from).credit(to).amount(4).linked().build();
            NewTransfer tail = tx().debit(from).credit(to).amount(8).linked().build();
            assertThat(ledger.createTransfers(List.of(ok, member, tail)))
                    .containsExactly(OK, LINKED_EVENT_FAILED, LINKED_EVENT_CHAIN_OPEN);

            NewTransfer broken =
                    tx().debit(from).credit(from).amount(16).linked().build();
            NewTransfer openTail =
                    tx().debit(from).credit(to).amount(32).linked().build();
            assertThat(ledger.createTransfers(List.of(broken, openTail)))
                    .containsExactly(ACCOUNTS_MUST_BE_DIFFERENT, LINKED_EVENT_CHAIN_OPEN);

            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 2));
            assertThat(ledger.lookupTransfers(List.of(alone.id(), member.id(), tail.id(), openTail.id())))
                    .isEmpty();
            // Chain-open is not transient: the id can be used again.
            assertThat(create(alone.withFlags(TransferFlags.NONE))).isEqualTo(OK);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "a post inside a broken chain is rolled back: the transfer stays pending and the post id stays usable")
        void postRolledBackWithItsChain() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(40).pending(LONG_TIMEOUT).build();
            assertThat(create(hold)).isEqualTo(OK);
            NewTransfer post = NewTransfer.post(newId(), hold.id(), 40).linked();
            assertThat(ledger.createTransfers(
                            List.of(post, tx().debit(from).credit(to).amount(61).build())))
                    .containsExactly(LINKED_EVENT_FAILED, EXCEEDS_CREDITS);
            assertThat(balances(from)).isEqualTo(new Balances(40, 0, 0, 100));
            assertThat(create(post.withFlags(TransferFlags.POST_PENDING_TRANSFER)))
                    .isEqualTo(OK);
            assertThat(balances(from)).isEqualTo(new Balances(0, 40, 0, 100));
            assertMoneyInvariants();
        }
    }

    /**
     * Idempotency and failed ids: a retry answers EXISTS or the first differing field and changes nothing; an
     * id that failed for a transient reason stays failed (ID_ALREADY_FAILED).
     */
    @Nested
    @DisplayName("failed ids and idempotency")
    class FailedIds {

        static Stream<Arguments> accountRetries() {
            Id128 ud128 = new Id128(7, 7);
            NewAccount original = new NewAccount(Id128.of(1), LEDGER, CODE, DEBITS_LIMITED, ud128, 64, 32);
            return Stream.of(
                    Arguments.of(AccountResult.EXISTS, original),
                    Arguments.of(AccountResult.EXISTS_WITH_DIFFERENT_FLAGS, original.withFlags(NO_LIMIT)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_128,
                            new NewAccount(original.id(), LEDGER, CODE, DEBITS_LIMITED, new Id128(8, 8), 64, 32)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_64,
                            new NewAccount(original.id(), LEDGER, CODE, DEBITS_LIMITED, ud128, 65, 32)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_32,
                            new NewAccount(original.id(), LEDGER, CODE, DEBITS_LIMITED, ud128, 64, 33)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_LEDGER,
                            new NewAccount(original.id(), OTHER_LEDGER, CODE, DEBITS_LIMITED, ud128, 64, 32)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_CODE,
                            new NewAccount(original.id(), LEDGER, CODE + 1, DEBITS_LIMITED, ud128, 64, 32)),
                    // The existence check comes before validation: an invalid retry still reports the difference.
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_LEDGER,
                            new NewAccount(original.id(), 0, 0, DEBITS_LIMITED, ud128, 64, 32)),
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_FLAGS,
                            new NewAccount(
                                    original.id(), LEDGER, CODE, DEBITS_LIMITED | CREDITS_LIMITED, ud128, 64, 32)),
                    // Several differences: the first in TigerBeetle's comparison order wins.
                    Arguments.of(
                            AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_64,
                            new NewAccount(original.id(), OTHER_LEDGER, CODE + 1, DEBITS_LIMITED, ud128, 65, 33)));
        }

        @ParameterizedTest(name = "{0}: {1}")
        @MethodSource("accountRetries")
        @DisplayName(
                "re-creating an account answers EXISTS when identical, else the first differing field, and changes nothing")
        void accountRetryAnswersExistsOrTheFirstDifference(AccountResult expected, NewAccount retryTemplate) {
            Id128 id = newId();
            NewAccount original = new NewAccount(id, LEDGER, CODE, DEBITS_LIMITED, new Id128(7, 7), 64, 32);
            NewAccount retry = new NewAccount(
                    id,
                    retryTemplate.ledger(),
                    retryTemplate.code(),
                    retryTemplate.flags(),
                    retryTemplate.userData128(),
                    retryTemplate.userData64(),
                    retryTemplate.userData32());
            assertThat(ledger.createAccounts(List.of(original))).containsExactly(AccountResult.OK);

            assertThat(ledger.createAccounts(List.of(retry))).containsExactly(expected);
            Account stored = lookupAccount(id);
            assertThat(stored.flags()).isEqualTo(DEBITS_LIMITED);
            assertThat(stored.ledger()).isEqualTo(LEDGER);
            assertThat(stored.code()).isEqualTo(CODE);
            assertThat(stored.userData64()).isEqualTo(64);
        }

        static Stream<Arguments> transferRetries() {
            return Stream.of(
                    Arguments.of(EXISTS, (Function<Tx, Tx>) t -> t),
                    Arguments.of(EXISTS_WITH_DIFFERENT_FLAGS, (Function<Tx, Tx>) t -> t.flags(TransferFlags.PENDING)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_PENDING_ID, (Function<Tx, Tx>) t -> t.pendingId(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_TIMEOUT, (Function<Tx, Tx>) t -> t.timeout(7)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID, (Function<Tx, Tx>) t -> t.debit(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID, (Function<Tx, Tx>) t -> t.credit(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_AMOUNT, (Function<Tx, Tx>) t -> t.amount(11)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_USER_DATA_128, (Function<Tx, Tx>)
                            t -> t.userData(new Id128(5, 5), 64, 32)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_USER_DATA_64, (Function<Tx, Tx>)
                            t -> t.userData(new Id128(1, 1), 65, 32)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_USER_DATA_32, (Function<Tx, Tx>)
                            t -> t.userData(new Id128(1, 1), 64, 33)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_LEDGER, (Function<Tx, Tx>) t -> t.ledger(OTHER_LEDGER)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_CODE, (Function<Tx, Tx>) t -> t.code(CODE + 1)),
                    // The existence check comes before validation and before the accounts are read.
                    Arguments.of(EXISTS_WITH_DIFFERENT_LEDGER, (Function<Tx, Tx>) t -> t.ledger(0)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID, (Function<Tx, Tx>) t -> t.debit(Id128.ZERO)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_FLAGS, (Function<Tx, Tx>)
                            t -> t.flags(TransferFlags.POST_PENDING_TRANSFER).pendingId(newId())),
                    // Several differences: the first in TigerBeetle's comparison order wins.
                    Arguments.of(EXISTS_WITH_DIFFERENT_AMOUNT, (Function<Tx, Tx>)
                            t -> t.amount(1).code(2).ledger(OTHER_LEDGER)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_PENDING_ID, (Function<Tx, Tx>)
                            t -> t.pendingId(newId()).timeout(1).amount(1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("transferRetries")
        @DisplayName(
                "retrying a transfer answers EXISTS when identical, else the first differing field, and moves money once")
        void transferRetryAnswersExistsOrTheFirstDifference(TransferResult expected, Function<Tx, Tx> alteration) {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            Tx original = tx().debit(from).credit(to).amount(10).userData(new Id128(1, 1), 64, 32);
            assertThat(create(original.build())).isEqualTo(OK);

            assertThat(create(alteration.apply(original.copy()).build())).isEqualTo(expected);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 10));
            assertThat(lookupTransfer(original.build().id()).amount()).isEqualTo(10);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("retrying a pending transfer with another timeout answers EXISTS_WITH_DIFFERENT_TIMEOUT")
        void pendingRetryWithAnotherTimeout() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            Tx hold = tx().debit(from).credit(to).amount(10).pending(LONG_TIMEOUT);
            assertThat(create(hold.build())).isEqualTo(OK);
            assertThat(create(hold.build())).isEqualTo(EXISTS);
            assertThat(create(hold.copy().timeout(LONG_TIMEOUT + 1).build())).isEqualTo(EXISTS_WITH_DIFFERENT_TIMEOUT);
            assertThat(create(hold.copy().timeout(0).build())).isEqualTo(EXISTS_WITH_DIFFERENT_TIMEOUT);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 10, 0));
            assertMoneyInvariants();
        }

        static Stream<Arguments> postRetries() {
            return Stream.of(
                    Arguments.of(EXISTS, (Function<Tx, Tx>) t -> t),
                    Arguments.of(EXISTS, (Function<Tx, Tx>) t -> t.debit(t.debitHint)
                            .credit(t.creditHint)
                            .ledger(LEDGER)
                            .code(CODE)),
                    Arguments.of(EXISTS, (Function<Tx, Tx>) t -> t.userData(new Id128(3, 3), 0, 0)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_FLAGS, (Function<Tx, Tx>)
                            t -> t.flags(TransferFlags.VOID_PENDING_TRANSFER)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_PENDING_ID, (Function<Tx, Tx>) t -> t.pendingId(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_TIMEOUT, (Function<Tx, Tx>) t -> t.timeout(1)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID, (Function<Tx, Tx>) t -> t.debit(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID, (Function<Tx, Tx>) t -> t.credit(newId())),
                    Arguments.of(EXISTS_WITH_DIFFERENT_AMOUNT, (Function<Tx, Tx>) t -> t.amount(59)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_AMOUNT, (Function<Tx, Tx>) t -> t.amount(0)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_USER_DATA_128, (Function<Tx, Tx>)
                            t -> t.userData(new Id128(4, 4), 0, 0)),
                    Arguments.of(
                            EXISTS_WITH_DIFFERENT_USER_DATA_64, (Function<Tx, Tx>) t -> t.userData(Id128.ZERO, 5, 0)),
                    Arguments.of(
                            EXISTS_WITH_DIFFERENT_USER_DATA_32, (Function<Tx, Tx>) t -> t.userData(Id128.ZERO, 0, 6)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_LEDGER, (Function<Tx, Tx>) t -> t.ledger(OTHER_LEDGER)),
                    Arguments.of(EXISTS_WITH_DIFFERENT_CODE, (Function<Tx, Tx>) t -> t.code(CODE + 1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("postRetries")
        @DisplayName(
                "retrying a post compares against what was stored (zero fields mean 'as the pending') and posts once")
        void postRetryAnswersExistsOrTheFirstDifference(TransferResult expected, Function<Tx, Tx> alteration) {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold = tx().debit(from)
                    .credit(to)
                    .amount(60)
                    .pending(LONG_TIMEOUT)
                    .userData(new Id128(3, 3), 0, 0)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);
            Tx post = tx().flags(TransferFlags.POST_PENDING_TRANSFER)
                    .pendingId(hold.id())
                    .amount(60)
                    .ledger(0)
                    .code(0);
            post.debitHint = from;
            post.creditHint = to;
            assertThat(create(post.build())).isEqualTo(OK);

            assertThat(create(alteration.apply(post.copy()).build())).isEqualTo(expected);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 60));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("retrying a void with amount 0 or the pending amount answers EXISTS; another amount differs")
        void voidRetry() {
            Id128 from = funded(100);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold =
                    tx().debit(from).credit(to).amount(60).pending(LONG_TIMEOUT).build();
            NewTransfer voids = NewTransfer.voidPending(newId(), hold.id());
            assertThat(ledger.createTransfers(List.of(hold, voids))).containsExactly(OK, OK);
            Tx retry = tx().id(voids.id())
                    .flags(TransferFlags.VOID_PENDING_TRANSFER)
                    .pendingId(hold.id())
                    .ledger(0)
                    .code(0);
            assertThat(ledger.createTransfers(List.of(
                            retry.amount(0).build(),
                            retry.amount(60).build(),
                            retry.amount(59).build())))
                    .containsExactly(EXISTS, EXISTS, EXISTS_WITH_DIFFERENT_AMOUNT);
            assertThat(balances(from)).isEqualTo(new Balances(0, 0, 0, 100));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "an id that failed with EXCEEDS_CREDITS is refused forever with ID_ALREADY_FAILED, even once funds arrive")
        void idAlreadyFailedAfterExceedsCredits() {
            Id128 payer = funded(50);
            Id128 payee = account(NO_LIMIT);
            Tx payment = tx().debit(payer).credit(payee).amount(80);
            assertThat(create(payment.build())).isEqualTo(EXCEEDS_CREDITS);

            fund(payer, 100);
            assertThat(create(payment.build())).isEqualTo(ID_ALREADY_FAILED);
            assertThat(create(payment.copy().amount(1).build()))
                    .as("whatever the fields")
                    .isEqualTo(ID_ALREADY_FAILED);
            assertThat(ledger.lookupTransfers(List.of(payment.build().id()))).isEmpty();
            assertThat(create(payment.copy().id(newId()).build()))
                    .as("a new id goes through")
                    .isEqualTo(OK);
            assertThat(balances(payer)).isEqualTo(new Balances(0, 80, 0, 150));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("an id that failed with DEBIT_ACCOUNT_NOT_FOUND stays failed after the account is created")
        void idAlreadyFailedAfterAccountNotFound() {
            Id128 late = newId();
            Id128 payee = account(NO_LIMIT);
            Tx transfer = tx().debit(late).credit(payee).amount(5);
            assertThat(create(transfer.build())).isEqualTo(DEBIT_ACCOUNT_NOT_FOUND);
            assertThat(ledger.createAccounts(List.of(NewAccount.of(late, LEDGER, CODE, NO_LIMIT))))
                    .containsExactly(AccountResult.OK);
            track(late);
            assertThat(create(transfer.build())).isEqualTo(ID_ALREADY_FAILED);
            assertThat(balances(payee)).isEqualTo(new Balances(0, 0, 0, 0));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName(
                "an id that failed with PENDING_TRANSFER_NOT_FOUND is burned, and a burned id is no pending transfer")
        void idAlreadyFailedAfterPendingTransferNotFound() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            Id128 pendingId = newId();
            Id128 postId = newId();
            assertThat(create(NewTransfer.post(postId, pendingId, 5))).isEqualTo(PENDING_TRANSFER_NOT_FOUND);
            assertThat(create(tx().id(pendingId)
                            .debit(from)
                            .credit(to)
                            .amount(5)
                            .pending(LONG_TIMEOUT)
                            .build()))
                    .isEqualTo(OK);
            assertThat(create(NewTransfer.post(postId, pendingId, 5))).isEqualTo(ID_ALREADY_FAILED);

            Id128 burned = newId();
            assertThat(create(tx().id(burned)
                            .debit(newId())
                            .credit(to)
                            .amount(1)
                            .pending(LONG_TIMEOUT)
                            .build()))
                    .isEqualTo(DEBIT_ACCOUNT_NOT_FOUND);
            assertThat(create(NewTransfer.post(newId(), burned, 1))).isEqualTo(PENDING_TRANSFER_NOT_FOUND);
            assertThat(create(NewTransfer.post(newId(), pendingId, 5))).isEqualTo(OK);
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("within one request, an id burned by an earlier event is already failed for a later one")
        void idBurnedEarlierInTheSameRequest() {
            Id128 payer = funded(10);
            Id128 payee = account(NO_LIMIT);
            Tx big = tx().debit(payer).credit(payee).amount(11);
            assertThat(ledger.createTransfers(
                            List.of(big.build(), big.copy().amount(10).build())))
                    .containsExactly(EXCEEDS_CREDITS, ID_ALREADY_FAILED);
            assertThat(balances(payee)).isEqualTo(new Balances(0, 0, 0, 0));
            assertMoneyInvariants();
        }
    }

    /**
     * Racers: one winner per pending transfer, no overdraft, EXISTS for a redelivered batch, distinct
     * timestamps in commit order.
     */
    @Nested
    @DisplayName("concurrency")
    class Concurrency {

        @Test
        @Timeout(60)
        @DisplayName("16 racers posting or voiding the same pending transfer with their own ids: exactly one wins")
        void racingResolutionsHaveExactlyOneWinner() throws Exception {
            Id128 from = funded(1_000);
            Id128 to = account(NO_LIMIT);
            NewTransfer hold = tx().debit(from)
                    .credit(to)
                    .amount(600)
                    .pending(LONG_TIMEOUT)
                    .build();
            assertThat(create(hold)).isEqualTo(OK);

            List<NewTransfer> attempts = IntStream.range(0, 16)
                    .mapToObj(i -> i % 2 == 0
                            ? NewTransfer.post(newId(), hold.id(), 600)
                            : NewTransfer.voidPending(newId(), hold.id()))
                    .toList();
            List<TransferResult> results = race(attempts.stream()
                    .map(attempt -> (Callable<TransferResult>) () -> create(attempt))
                    .toList());

            assertThat(results.stream().filter(r -> r == OK).count())
                    .as("winners among %s", results)
                    .isEqualTo(1);
            NewTransfer winner = attempts.get(results.indexOf(OK));
            boolean posted = winner.hasFlag(TransferFlags.POST_PENDING_TRANSFER);
            TransferResult losers = posted ? PENDING_TRANSFER_ALREADY_POSTED : PENDING_TRANSFER_ALREADY_VOIDED;
            assertThat(results.stream().filter(r -> r != OK)).as("%s", results).allMatch(r -> r == losers);
            assertThat(balances(from))
                    .isEqualTo(posted ? new Balances(0, 600, 0, 1_000) : new Balances(0, 0, 0, 1_000));
            assertThat(balances(to)).isEqualTo(posted ? new Balances(0, 0, 0, 600) : new Balances(0, 0, 0, 0));
            for (int i = 0; i < attempts.size(); i++) {
                assertThat(ledger.lookupTransfers(List.of(attempts.get(i).id())))
                        .hasSize(results.get(i) == OK ? 1 : 0);
            }
            assertMoneyInvariants();
        }

        @Test
        @Timeout(60)
        @DisplayName("16 racers spending from one limited account: exactly as many succeed as the balance allows")
        void racingSpendsNeverOverdraw() throws Exception {
            Id128 payer = funded(100);
            Id128 payee = account(NO_LIMIT);
            List<Callable<TransferResult>> spends = IntStream.range(0, 16)
                    .mapToObj(i -> (Callable<TransferResult>) () -> create(
                            i % 2 == 0
                                    ? tx().debit(payer).credit(payee).amount(10).build()
                                    : tx().debit(payer)
                                            .credit(payee)
                                            .amount(10)
                                            .pending(LONG_TIMEOUT)
                                            .build()))
                    .toList();
            List<TransferResult> results = race(spends);
            assertThat(results.stream().filter(r -> r == OK).count())
                    .as("%s", results)
                    .isEqualTo(10);
            assertThat(results.stream().filter(r -> r != OK)).as("%s", results).allMatch(r -> r == EXCEEDS_CREDITS);
            Account account = lookupAccount(payer);
            assertThat(account.debitsPosted() + account.debitsPending()).isEqualTo(100);
            assertMoneyInvariants();
        }

        @Test
        @Timeout(120)
        @DisplayName(
                "two identical batches racing (a redelivered poll cleared twice at once): one applies, the other answers EXISTS")
        void racingIdenticalBatchesGiveExistsToTheLoser() throws Exception {
            // Each payer can cover its transfer once: a loser that took an id for new would answer
            // EXCEEDS_CREDITS, burn the id, and a clearing consumer would report REJECTED for a payment
            // the winner settled. Several rounds, because a race may not interleave on every try.
            for (int round = 0; round < 8; round++) {
                List<NewTransfer> batch = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    batch.add(tx().debit(funded(100))
                            .credit(account(NO_LIMIT))
                            .amount(100)
                            .pending(LONG_TIMEOUT)
                            .build());
                }
                List<List<TransferResult>> results = race(List.<Callable<List<TransferResult>>>of(
                        () -> ledger.createTransfers(batch), () -> ledger.createTransfers(batch)));
                for (int i = 0; i < batch.size(); i++) {
                    List<TransferResult> pair =
                            List.of(results.get(0).get(i), results.get(1).get(i));
                    assertThat(pair).as("round %d transfer %d", round, i).containsExactlyInAnyOrder(OK, EXISTS);
                }
            }
            assertMoneyInvariants();
        }

        @Test
        @Timeout(120)
        @DisplayName(
                "account batches committed concurrently get distinct timestamps: the account walk finds each account once")
        void concurrentAccountBatchesGetDistinctTimestamps() throws Exception {
            // A backend that stamps a batch from a clock each transaction reads alone gives two batches that read it in
            // the same tick the same timestamps (the demo's four banks, registered at once, did); an account walk
            // paging
            // "after the last timestamp" then skips accounts, and a reconciliation that walks the set misses them.
            // TigerBeetle stamps every event once, in commit order. Many small rounds: a race needs one tick to land
            // in.
            int walked =
                    2_000_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(1_000_000);
            int racers = 16;
            int rounds = 40;
            int pageSize = 64;
            Set<Id128> created = java.util.concurrent.ConcurrentHashMap.newKeySet();
            for (int round = 0; round < rounds; round++) {
                race(IntStream.range(0, racers)
                        .mapToObj(racer -> (Callable<Boolean>) () -> {
                            List<NewAccount> batch = List.of(
                                    NewAccount.of(newId(), walked, CODE, NO_LIMIT),
                                    NewAccount.of(newId(), walked, CODE, NO_LIMIT));
                            assertThat(ledger.createAccounts(batch)).containsOnly(AccountResult.OK);
                            batch.forEach(account -> created.add(account.id()));
                            return true;
                        })
                        .toList());
            }

            List<Account> seen = new ArrayList<>();
            long after = 0;
            for (int page = 0; page <= created.size() / pageSize; page++) {
                List<Account> accounts = ledger.queryAccounts(walked, after, pageSize);
                seen.addAll(accounts);
                if (accounts.size() < pageSize) {
                    break;
                }
                after = accounts.getLast().timestamp();
            }
            assertThat(seen.stream().map(Account::timestamp).distinct().count())
                    .as("distinct timestamps")
                    .isEqualTo(seen.size());
            assertThat(seen.stream().map(Account::id).toList())
                    .as("the walk")
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(created);
        }

        @Test
        @Timeout(120)
        @DisplayName(
                "transfer batches committed concurrently get distinct timestamps, after every transfer committed before them")
        void concurrentTransferBatchesGetDistinctTimestamps() throws Exception {
            int racers = 16;
            int rounds = 40;
            List<Id128> payers =
                    IntStream.range(0, racers).mapToObj(i -> funded(1_000)).toList();
            Id128 payee = account(NO_LIMIT);
            long before = lookupTransfer(transferOf(funded(1), payee)).timestamp();
            List<Id128> ids = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int round = 0; round < rounds; round++) {
                race(payers.stream()
                        .map(payer -> (Callable<Boolean>) () -> {
                            List<NewTransfer> batch = List.of(
                                    tx().debit(payer).credit(payee).amount(1).build(),
                                    tx().debit(payer)
                                            .credit(payee)
                                            .amount(1)
                                            .pending(LONG_TIMEOUT)
                                            .build());
                            assertThat(ledger.createTransfers(batch)).containsOnly(OK);
                            batch.forEach(transfer -> ids.add(transfer.id()));
                            return true;
                        })
                        .toList());
            }

            List<Long> timestamps = ledger.lookupTransfers(List.copyOf(ids)).stream()
                    .map(Transfer::timestamp)
                    .toList();
            assertThat(timestamps)
                    .hasSize(racers * rounds * 2)
                    .doesNotHaveDuplicates()
                    .allMatch(t -> t > before);
            assertThat(balances(payee))
                    .isEqualTo(new Balances(0, 0, (long) racers * rounds, 1 + (long) racers * rounds));
            assertMoneyInvariants();
        }
    }

    /** Request size: {@value Ledger#BATCH_SIZE_MAX} events are applied, one more is refused whole. */
    @Nested
    @DisplayName("request size")
    class RequestSize {

        @Test
        @Timeout(120)
        @DisplayName("a request of exactly 8189 transfers is applied")
        void largestRequestIsApplied() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            List<NewTransfer> batch = IntStream.range(0, Ledger.BATCH_SIZE_MAX)
                    .mapToObj(i -> tx().debit(from).credit(to).amount(1).build())
                    .toList();
            List<TransferResult> results = ledger.createTransfers(batch);
            assertThat(results).hasSize(Ledger.BATCH_SIZE_MAX).containsOnly(OK);
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, Ledger.BATCH_SIZE_MAX));
            assertMoneyInvariants();
        }

        @Test
        @DisplayName("a request of 8190 transfers is refused with BatchTooLargeException and nothing is applied")
        void oversizedRequestIsRefusedWhole() {
            Id128 from = account(NO_LIMIT);
            Id128 to = account(NO_LIMIT);
            List<NewTransfer> batch = IntStream.range(0, Ledger.BATCH_SIZE_MAX + 1)
                    .mapToObj(i -> tx().debit(from).credit(to).amount(1).build())
                    .toList();
            assertThatThrownBy(() -> ledger.createTransfers(batch))
                    .isInstanceOf(BatchTooLargeException.class)
                    .satisfies(
                            e -> assertThat(((BatchTooLargeException) e).size()).isEqualTo(Ledger.BATCH_SIZE_MAX + 1));
            assertThat(balances(to)).isEqualTo(new Balances(0, 0, 0, 0));
            assertThat(ledger.lookupTransfers(
                            List.of(batch.getFirst().id(), batch.getLast().id())))
                    .isEmpty();

            List<NewAccount> accounts = IntStream.range(0, Ledger.BATCH_SIZE_MAX + 1)
                    .mapToObj(i -> NewAccount.of(newId(), LEDGER, CODE, NO_LIMIT))
                    .toList();
            assertThatThrownBy(() -> ledger.createAccounts(accounts)).isInstanceOf(BatchTooLargeException.class);
            assertThat(ledger.lookupAccounts(
                            List.of(accounts.getFirst().id(), accounts.getLast().id())))
                    .isEmpty();
            assertMoneyInvariants();
        }
    }

    // =============================================================================================
    // Shared by the groups (and by subclasses: expiryScenario)

    /** Accounts a single-fault transfer can refer to. */
    protected record Scene(
            Id128 from,
            Id128 to,
            Id128 onOtherLedger,
            Id128 emptyDebitLimited,
            Id128 emptyCreditLimited,
            Id128 plainTransfer) {}

    /** One fault applied to an otherwise valid transfer. */
    protected record Fault(String description, TransferResult expected, BiFunction<Scene, Tx, Tx> apply) {
        @Override
        public String toString() {
            return expected + " <- " + description;
        }
    }

    private Scene scene() {
        Id128 from = funded(1_000);
        Id128 to = account(NO_LIMIT);
        Id128 plain = newId();
        assertThat(create(tx().id(plain).debit(from).credit(to).amount(1).build()))
                .isEqualTo(OK);
        return new Scene(
                from, to, account(OTHER_LEDGER, NO_LIMIT), account(DEBITS_LIMITED), account(CREDITS_LIMITED), plain);
    }

    /** One unit from {@code from} to {@code to}, committed; the transfer's id. */
    private Id128 transferOf(Id128 from, Id128 to) {
        NewTransfer transfer = tx().debit(from).credit(to).amount(1).build();
        assertThat(create(transfer)).isEqualTo(OK);
        return transfer.id();
    }

    /**
     * Two pending transfers with a 1 s timeout and one that never expires; after the timeout,
     * {@code afterTimeout} runs, then: post and void answer {@code PENDING_TRANSFER_EXPIRED}, and the
     * reservations are released (polling up to 5 s if {@code pollForRelease}, else at once).
     */
    protected final void expiryScenario(Runnable afterTimeout, boolean pollForRelease) throws InterruptedException {
        Id128 payer = funded(100);
        Id128 payee = account(NO_LIMIT);
        NewTransfer first =
                tx().debit(payer).credit(payee).amount(30).pending(1).build();
        NewTransfer second =
                tx().debit(payer).credit(payee).amount(20).pending(1).build();
        NewTransfer control =
                tx().debit(payer).credit(payee).amount(10).pending(LONG_TIMEOUT).build();
        long created = System.nanoTime();
        assertThat(ledger.createTransfers(List.of(first, second, control))).containsExactly(OK, OK, OK);
        assertThat(balances(payer)).isEqualTo(new Balances(60, 0, 0, 100));
        assertThat(lookupTransfer(first.id()).timeoutSeconds()).isEqualTo(1);

        sleepUntil(created + Duration.ofMillis(1_300).toNanos());
        afterTimeout.run();
        // Refused at or after the expiry instant, whether or not anything released it yet.
        assertThat(ledger.createTransfers(List.of(
                        NewTransfer.post(newId(), first.id(), 30), NewTransfer.voidPending(newId(), second.id()))))
                .containsExactly(PENDING_TRANSFER_EXPIRED, PENDING_TRANSFER_EXPIRED);

        Balances released = new Balances(10, 0, 0, 100);
        if (pollForRelease) {
            awaitTrue(() -> balances(payer).equals(released), Duration.ofSeconds(5));
        }
        assertThat(balances(payer)).isEqualTo(released);
        assertThat(balances(payee)).isEqualTo(new Balances(0, 0, 10, 0));
        assertThat(ledger.createTransfers(List.of(
                        NewTransfer.post(newId(), first.id(), 30), NewTransfer.post(newId(), control.id(), 10))))
                .containsExactly(PENDING_TRANSFER_EXPIRED, OK);
        assertThat(lookupAccount(payer).creditBalanceAvailable()).isEqualTo(90);
        // Retrying the pending transfer itself still answers EXISTS: expiry does not change the transfer.
        assertThat(create(first)).isEqualTo(EXISTS);
        assertMoneyInvariants();
    }
}
