package io.pagora.payments.api.application.administration;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.TransferResult;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.payments.api.application.intake.IdempotencyKeys;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.domain.DerivedIds;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.AccessRules;
import io.pagora.settlement.domain.access.Caller;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up participants on the ledger: banks, customer accounts and their funding. Every operation is
 * idempotent, with the ledger as the idempotency store (deterministic account and transfer ids), so a
 * retry after any failure is safe; an account whose number the switch draws is idempotent by its
 * Idempotency-Key, in payment-api's idempotency store. Outcomes are values; only infrastructure failures throw.
 *
 * <p>Who may do what is decided here, before any ledger request, and every refusal is counted
 * ({@link AccessRefusals}): registering banks and funding reserves are the operator's ({@code Forbidden}, a
 * 403); a bank acts for itself only, and what it may not touch reads exactly as what does not exist: opening
 * an account at another bank is answered as at an unregistered bank, funding or reading another bank's
 * account as a missing account.
 *
 * <p>Over 400 lines on purpose: the operator's and the banks' administration share one set of access rules and refusals,
 * which split classes would repeat.
 */
public final class ParticipantAdministration {

    private static final Logger log = LoggerFactory.getLogger(ParticipantAdministration.class);

    /**
     * Draws of a random account number before giving up. Numbers are drawn from 2^53 - 2^40 values
     * ({@link RandomAccountNumbers}): sixteen collisions in a row do not happen while the ledger holds fewer
     * than a few hundred trillion customers of one bank; the bound is there so that a loop always ends.
     */
    static final int ACCOUNT_NUMBER_ATTEMPTS_MAX = 16;

    public sealed interface BankRegistration {
        record Registered(BankId bank, String name, Id128 reserve, Id128 transit, boolean created)
                implements BankRegistration {}

        record Refused(Refusal problem) implements BankRegistration {}

        /** Only the operator registers banks. */
        record Forbidden() implements BankRegistration {}
    }

    /** A registered bank as {@code GET /banks/{ispb}} shows it. */
    public record Bank(BankId bank, String name, Id128 reserve, Id128 transit) {}

    public sealed interface AccountOpening {
        /** {@code replayed}: opened by an earlier request with the same Idempotency-Key (null without a key). */
        record Opened(Id128 account, BankId bank, long accountNumber, boolean created, Boolean replayed)
                implements AccountOpening {}

        record Refused(Refusal problem) implements AccountOpening {}
    }

    public sealed interface Funding {
        record Funded(Id128 transferId, Id128 debited, Id128 credited, long amountCentavos, boolean created)
                implements Funding {}

        record Refused(Refusal problem) implements Funding {}

        /** Only the operator funds reserves (a customer funding is refused as a missing account instead). */
        record Forbidden() implements Funding {}
    }

    private final Ledger ledger;
    private final Participants participants;
    private final AccountNumbers accountNumbers;
    private final BankNames bankNames;
    private final AccountDirectory directory;
    private final long fundingMaxCentavos;
    private final AccessRefusals refusals;
    private final IdempotencyKeys keys;
    private final Clock clock;

    public ParticipantAdministration(
            Ledger ledger,
            AccountNumbers accountNumbers,
            BankNames bankNames,
            AccountDirectory directory,
            long fundingMaxCentavos,
            AccessRefusals refusals,
            IdempotencyKeys keys,
            Clock clock) {
        Check.that(fundingMaxCentavos > 0, "funding max must be positive: %d", fundingMaxCentavos);
        this.keys = keys;
        this.clock = clock;
        this.ledger = ledger;
        this.participants = new Participants(ledger);
        this.accountNumbers = accountNumbers;
        this.bankNames = bankNames;
        this.directory = directory;
        this.fundingMaxCentavos = fundingMaxCentavos;
        this.refusals = refusals;
    }

    /** The issuer's account: every reserve is funded from it. Idempotent; run at every start. */
    public void openCentralBank() {
        AccountResult result = participants.openCentralBank();
        Check.that(result.isSuccess(), "the ledger refused the central bank account: %s", result);
        log.info(
                "central bank account {} {}",
                ChartOfAccounts.centralBank(),
                result == AccountResult.OK ? "created" : "exists");
    }

    public BankRegistration registerBank(Caller caller, BankId bank, String name) {
        if (refused(caller, AccessRules.operatorOnly(caller))) {
            return new BankRegistration.Forbidden();
        }
        List<AccountResult> results = participants.registerBank(bank);
        Check.that(results.size() == 2, "two results for a bank's two accounts");
        if (results.stream().anyMatch(AccountResult::isIntegrityAlarm)) {
            log.error("integrity alarm: bank {} accounts exist with different fields: {}", bank, results);
            return new BankRegistration.Refused(Refusal.of(
                    RefusalReason.LEDGER_CONFLICT,
                    "the ledger holds accounts for bank " + bank + " with different fields: " + results));
        }
        boolean ledgerCreated = results.stream().allMatch(result -> result == AccountResult.OK);
        // In a linked chain an existing account fails the chain (exists, linked_event_failed): the bank
        // was registered before, as a whole. Confirm with a lookup rather than trusting the codes.
        if (!ledgerCreated && !bankExists(bank)) {
            return new BankRegistration.Refused(Refusal.of(
                    RefusalReason.LEDGER_REFUSED, "the ledger refused the accounts of bank " + bank + ": " + results));
        }
        BankNames.Stored stored = bankNames.register(bank, name);
        if (!stored.inserted() && !stored.name().equals(name)) {
            return new BankRegistration.Refused(Refusal.ofField(
                    RefusalReason.BANK_NAME_CONFLICT,
                    "name",
                    "bank " + bank + " is registered as \"" + stored.name() + "\", not \"" + name + "\""));
        }
        return new BankRegistration.Registered(
                bank,
                stored.name(),
                ChartOfAccounts.reserve(bank),
                ChartOfAccounts.transit(bank),
                ledgerCreated || stored.inserted());
    }

    /**
     * A registered bank, for the operator or the bank itself; empty for any other caller (see {@link #bankNotFound}),
     * and for a bank whose registration did not complete (its name is stored last: POST /banks again completes it).
     */
    public Optional<Bank> bank(Caller caller, BankId bank) {
        if (refused(caller, AccessRules.bankOrOperator(caller, bank))) {
            return Optional.empty();
        }
        Optional<String> name = bankNames.nameOf(bank);
        if (name.isEmpty() || !bankExists(bank)) {
            return Optional.empty();
        }
        return Optional.of(new Bank(bank, name.get(), ChartOfAccounts.reserve(bank), ChartOfAccounts.transit(bank)));
    }

    /** The answer for a bank that is not registered, or that the caller may not read: the same, on purpose. */
    public static Refusal bankNotFound(BankId bank) {
        return Refusal.of(RefusalReason.BANK_NOT_FOUND, "bank " + bank + " is not registered");
    }

    /**
     * Opens {@code accountNumber} at {@code bank} (idempotent), or a freshly allocated number when it is null. With a
     * {@code key} (else null) the opening is claimed in the idempotency store, as a payment's key is: the same key and
     * request name the same account (a drawn number too), replayed; the same key with another request is refused. The
     * key is claimed before the ledger opens the account, so a retry after any failure opens that one.
     */
    public AccountOpening openAccount(Caller caller, BankId bank, Long accountNumber, IdempotencyKey key) {
        if (refused(caller, AccessRules.bankItself(caller, bank)) || !bankExists(bank)) {
            return new AccountOpening.Refused(unknownBank(bank, "ispb"));
        }
        if (key != null) {
            return openAccountOnce(caller, bank, accountNumber, key);
        }
        if (accountNumber != null) {
            AccountResult result =
                    participants.openCustomers(bank, List.of(accountNumber)).getFirst();
            return opened(bank, accountNumber, result, null);
        }
        for (int attempt = 0; attempt < ACCOUNT_NUMBER_ATTEMPTS_MAX; attempt++) {
            long number = accountNumbers.next();
            AccountResult result =
                    participants.openCustomers(bank, List.of(number)).getFirst();
            if (result != AccountResult.EXISTS) {
                return opened(bank, number, result, null);
            }
            // Taken already (chosen explicitly, or drawn before): it is someone's; draw again.
        }
        return noFreeNumber(bank);
    }

    private AccountOpening openAccountOnce(Caller caller, BankId bank, Long accountNumber, IdempotencyKey key) {
        Scoped scoped = new Scoped(caller, IdempotencyKey.ofAccountOpening(key));
        byte[] request = accountRequestSha256(bank, accountNumber);
        IdempotencyKeys.Stored earlier = keys.find(List.of(scoped)).get(scoped);
        if (earlier == null) {
            Long number = accountNumber != null ? accountNumber : freeNumber(bank);
            if (number == null) {
                return noFreeNumber(bank);
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            IdempotencyKeys.Stored claimed = keys.claimAll(
                            List.of(new IdempotencyKeys.Claim(scoped, request, numberAsStoredId(number), null)), now)
                    .get(scoped)
                    .key();
            if (claimed.inserted()) {
                AccountResult result =
                        participants.openCustomers(bank, List.of(number)).getFirst();
                if (result == AccountResult.EXISTS && accountNumber == null) {
                    // Drawn free a moment ago and taken since (as unlikely as a guess): it is someone else's.
                    log.error("account number drawn for key {} of {} was taken meanwhile", key.value(), caller);
                    return noFreeNumber(bank);
                }
                return opened(bank, number, result, false);
            }
            earlier = claimed; // a concurrent request with the same key claimed it first
        }
        if (!Arrays.equals(earlier.requestSha256(), request)) {
            return new AccountOpening.Refused(Refusal.of(
                    RefusalReason.IDEMPOTENCY_KEY_REUSED,
                    "this Idempotency-Key already opened an account with a different request; use a new key for a new"
                            + " account"));
        }
        long number = earlier.paymentId().value().hi();
        // Opened again, idempotently: the earlier request may have claimed the key and stopped before the ledger.
        return opened(
                bank, number, participants.openCustomers(bank, List.of(number)).getFirst(), true);
    }

    /** A drawn number no account has yet (the ledger says), or null after {@link #ACCOUNT_NUMBER_ATTEMPTS_MAX} draws. */
    private Long freeNumber(BankId bank) {
        for (int attempt = 0; attempt < ACCOUNT_NUMBER_ATTEMPTS_MAX; attempt++) {
            long number = accountNumbers.next();
            if (ledger.lookupAccounts(List.of(ChartOfAccounts.customer(bank, number)))
                    .isEmpty()) {
                return number;
            }
        }
        return null;
    }

    /**
     * The store's id column holds payment ids (their low byte zero): an account number is kept in the high half,
     * which a number of at most 2^63 - 1 fills without touching the low byte.
     */
    private static PaymentId numberAsStoredId(long number) {
        return new PaymentId(new Id128(number, 0));
    }

    /** What an opening asks for: the bank and the number, or none (drawn). */
    private static byte[] accountRequestSha256(BankId bank, Long accountNumber) {
        String request = "POST /accounts " + bank + " " + (accountNumber == null ? "drawn" : accountNumber.toString());
        return PaymentRequest.sha256(request.getBytes(StandardCharsets.US_ASCII));
    }

    private static AccountOpening noFreeNumber(BankId bank) {
        return new AccountOpening.Refused(Refusal.of(
                RefusalReason.LEDGER_REFUSED,
                "no free account number after " + ACCOUNT_NUMBER_ATTEMPTS_MAX + " allocations at bank " + bank
                        + "; give an explicit accountNumber"));
    }

    private AccountOpening opened(BankId bank, long number, AccountResult result, Boolean replayed) {
        Id128 account = ChartOfAccounts.customer(bank, number);
        if (result.isSuccess()) {
            directory.remember(List.of(account));
            return new AccountOpening.Opened(account, bank, number, result == AccountResult.OK, replayed);
        }
        if (result.isIntegrityAlarm()) {
            log.error("integrity alarm: account {} exists with different fields: {}", account, result);
            return new AccountOpening.Refused(Refusal.of(
                    RefusalReason.LEDGER_CONFLICT,
                    "account " + account + " exists in the ledger with different fields (" + result + ")"));
        }
        return new AccountOpening.Refused(
                Refusal.of(RefusalReason.LEDGER_REFUSED, "the ledger refused account " + account + ": " + result));
    }

    /** Central bank → the bank's reserve, once per idempotency key. */
    public Funding fundReserve(Caller caller, BankId bank, long amountCentavos, IdempotencyKey key) {
        if (refused(caller, AccessRules.operatorOnly(caller))) {
            return new Funding.Forbidden();
        }
        Optional<Refusal> invalid = checkFundingAmount(amountCentavos);
        if (invalid.isPresent()) {
            return new Funding.Refused(invalid.get());
        }
        // Look first: a transfer to a missing account would burn the derived id for good (TigerBeetle's
        // id_already_failed), and the same key could never fund the bank once registered.
        if (!bankExists(bank)) {
            return new Funding.Refused(unknownBank(bank, null));
        }
        // The operator is the only caller that funds reserves: the key is the operator's by construction.
        Id128 transferId = DerivedIds.reserveFunding(bank, key);
        TransferResult result = participants.fundReserve(transferId, bank, amountCentavos);
        return funded(transferId, ChartOfAccounts.centralBank(), ChartOfAccounts.reserve(bank), amountCentavos, result);
    }

    /**
     * The customer's bank (its transit account) → the customer, once per idempotency key. Only the customer's
     * bank funds it: another caller gets exactly the answer for a missing account, after the same checks.
     */
    public Funding fundCustomer(Caller caller, Id128 customer, long amountCentavos, IdempotencyKey key) {
        Optional<Refusal> invalid = checkFundingAmount(amountCentavos);
        if (invalid.isPresent()) {
            return new Funding.Refused(invalid.get());
        }
        if (!ChartOfAccounts.isCustomer(customer)) {
            return new Funding.Refused(Refusal.of(
                    RefusalReason.NOT_A_CUSTOMER_ACCOUNT,
                    "account " + customer + " is not a customer account; fund banks through their reserve"));
        }
        if (refused(caller, AccessRules.accountHolder(caller, customer))) {
            return new Funding.Refused(accountNotFound(customer));
        }
        BankId bank = ChartOfAccounts.bankOf(customer).orElseThrow();
        List<Account> found = ledger.lookupAccounts(List.of(customer, ChartOfAccounts.transit(bank)));
        if (found.stream().noneMatch(account -> account.id().equals(customer))) {
            return new Funding.Refused(accountNotFound(customer));
        }
        if (found.size() < 2) {
            return new Funding.Refused(unknownBank(bank, null));
        }
        // The key needs no participant scope: the id is derived from the target, and only its bank funds it.
        Id128 transferId = DerivedIds.customerFunding(customer, key);
        TransferResult result = participants.fundCustomer(transferId, customer, amountCentavos);
        return funded(transferId, ChartOfAccounts.transit(bank), customer, amountCentavos, result);
    }

    /**
     * The account as the ledger holds it now, if it exists and {@code caller} holds it (its bank; the central
     * bank's: the operator). Another caller's account is empty, like a missing one: see {@link #accountNotFound}.
     */
    public Optional<Account> account(Caller caller, Id128 id) {
        if (refused(caller, AccessRules.accountHolder(caller, id))) {
            return Optional.empty();
        }
        return ledger.lookupAccounts(List.of(id)).stream().findFirst();
    }

    /** The answer for an account that does not exist, or that the caller may not see: the same, on purpose. */
    public static Refusal accountNotFound(Id128 account) {
        return Refusal.of(RefusalReason.ACCOUNT_NOT_FOUND, "account " + account + " does not exist");
    }

    /** Counts a refusal; true if there is one. */
    private boolean refused(Caller caller, Optional<AccessRefusal> refusal) {
        refusal.ifPresent(reason -> refusals.refused(caller, reason));
        return refusal.isPresent();
    }

    public static Optional<AccountKind> kindOf(Account account) {
        return AccountKind.ofCode(account.code());
    }

    private Funding funded(
            Id128 transferId, Id128 debited, Id128 credited, long amountCentavos, TransferResult result) {
        if (result.isSuccess()) {
            return new Funding.Funded(transferId, debited, credited, amountCentavos, result == TransferResult.OK);
        }
        if (result.isIntegrityAlarm()) {
            // The id is derived from the key and the target only: a different field means a different request.
            return new Funding.Refused(Refusal.of(
                    RefusalReason.IDEMPOTENCY_KEY_REUSED,
                    "this Idempotency-Key already funded " + credited + " with a different amount (" + result
                            + "); use a new key for a new funding"));
        }
        if (result == TransferResult.ID_ALREADY_FAILED) {
            return new Funding.Refused(Refusal.of(
                    RefusalReason.IDEMPOTENCY_KEY_FAILED,
                    "an earlier funding with this Idempotency-Key failed and the ledger refuses its id for good;"
                            + " use a new key"));
        }
        return new Funding.Refused(Refusal.of(
                RefusalReason.LEDGER_REFUSED, "the ledger refused the funding of " + credited + ": " + result));
    }

    private Optional<Refusal> checkFundingAmount(long amountCentavos) {
        if (amountCentavos <= 0) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.INVALID_AMOUNT,
                    "amountCentavos",
                    "amountCentavos must be a positive integer, got " + amountCentavos));
        }
        if (amountCentavos > fundingMaxCentavos) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.AMOUNT_ABOVE_LIMIT,
                    "amountCentavos",
                    "amountCentavos must be at most " + fundingMaxCentavos + ", got " + amountCentavos));
        }
        return Optional.empty();
    }

    private boolean bankExists(BankId bank) {
        return ledger.lookupAccounts(List.of(ChartOfAccounts.reserve(bank), ChartOfAccounts.transit(bank)))
                        .size()
                == 2;
    }

    private static Refusal unknownBank(BankId bank, String field) {
        return Refusal.ofField(
                RefusalReason.UNKNOWN_BANK, field, "bank " + bank + " is not registered (POST /banks first)");
    }
}
