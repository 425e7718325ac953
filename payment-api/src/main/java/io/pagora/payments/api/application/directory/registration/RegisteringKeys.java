package io.pagora.payments.api.application.directory.registration;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.KeyStore;
import io.pagora.payments.api.application.directory.KeyStore.Registration;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.payments.api.domain.PaymentRules.AccountStatus;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.HolderName;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyRules;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TaxId;
import io.pagora.settlement.domain.access.AccessRules;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Registers, changes and deletes keys, for the bank that holds the account only. Every change is idempotent: the
 * same registration again answers the key as it is (a random key, an EVP, is made once per Idempotency-Key), a
 * deletion of a key already gone answers as a key that does not exist. A key another account holds is refused: a
 * claim moves it.
 */
public final class RegisteringKeys {

    /** What a registration or a change answers. */
    public sealed interface Outcome {
        /** {@code created} false for a repeat of what is already so. */
        record Done(KeyEntry entry, boolean created) implements Outcome {}

        record Refused(Refusal problem) implements Outcome {}
    }

    /** A registration as the bank asked for it, well-formed. */
    public record NewKey(PixKey key, Id128 account, String holderName, String holderTaxId) {}

    private final KeyStore keys;
    private final AccountDirectory accounts;
    private final Clock clock;
    private final Supplier<UUID> randomUuids;

    public RegisteringKeys(KeyStore keys, AccountDirectory accounts, Clock clock, Supplier<UUID> randomUuids) {
        this.keys = keys;
        this.accounts = accounts;
        this.clock = clock;
        this.randomUuids = randomUuids;
    }

    /** A new random key (EVP) for the account: made once per {@code requestKey}, a retry answers the same key. */
    public Outcome registerRandom(
            Caller caller, String requestKey, Id128 account, String holderName, String holderTaxId) {
        Optional<KeyEntry> made = keys.madeFor(caller.principalName(), requestKey);
        if (made.isPresent()) {
            KeyEntry entry = made.get();
            return entry.account().equals(account)
                            && entry.holderName().equals(holderName)
                            && entry.holderTaxId().equals(holderTaxId)
                    ? new Outcome.Done(entry, false)
                    : refused(Refusal.of(
                            RefusalReason.IDEMPOTENCY_KEY_REUSED,
                            "this Idempotency-Key already made random key "
                                    + entry.key().value()
                                    + " with a different request; use a new key for a new registration"));
        }
        PixKey evp = PixKey.of(KeyType.EVP, randomUuids.get().toString()).orElseThrow();
        return register(caller, new NewKey(evp, account, holderName, holderTaxId), requestKey);
    }

    /** A key of the CPF, CNPJ, phone or e-mail type, for the account. */
    public Outcome register(Caller caller, NewKey asked) {
        if (asked.key().type() == KeyType.EVP) {
            return refused(Refusal.ofField(
                    RefusalReason.INVALID_KEY,
                    "key",
                    "a random key (EVP) is made by the directory: register one without a key and with an"
                            + " Idempotency-Key"));
        }
        return register(caller, asked, null);
    }

    private Outcome register(Caller caller, NewKey asked, String requestKey) {
        Optional<Refusal> account = checkAccount(caller, asked.account(), asked.holderName(), asked.holderTaxId());
        if (account.isPresent()) {
            return refused(account.get());
        }
        KeyEntry entry = new KeyEntry(asked.key(), asked.account(), asked.holderName(), asked.holderTaxId(), now());
        Optional<Refusal> own =
                KeyRules.check(entry, List.of()).filter(r -> r.type() == RefusalReason.KEY_HOLDER_MISMATCH);
        if (own.isPresent()) {
            return refused(own.get());
        }
        Registration done = keys.register(
                entry, caller.principalName(), requestKey, accountKeys -> KeyRules.check(entry, accountKeys));
        return switch (done) {
            case Registration.Registered registered -> new Outcome.Done(registered.entry(), true);
            case Registration.Existing existing ->
                existing.entry().sameAs(entry)
                        ? new Outcome.Done(existing.entry(), false)
                        : refused(alreadyRegistered(caller, existing.entry()));
            case Registration.Refused refusal -> refused(refusal.problem());
        };
    }

    /** Points the key to another account of the same bank, or renames its holder; the holder's tax id stays. */
    public Outcome update(Caller caller, PixKey key, Id128 account, String holderName) {
        Optional<KeyEntry> found = keys.find(key).filter(entry -> holds(caller, entry.account()));
        if (found.isEmpty()) {
            return refused(notFound(key));
        }
        KeyEntry current = found.get();
        Optional<Refusal> problem = checkAccount(caller, account, holderName, current.holderTaxId());
        if (problem.isPresent()) {
            return refused(problem.get());
        }
        KeyEntry replacement = new KeyEntry(
                key,
                account,
                holderName,
                current.holderTaxId(),
                account.equals(current.account()) ? current.createdAt() : now());
        if (replacement.sameAs(current)) {
            return new Outcome.Done(current, false);
        }
        Registration done = keys.update(
                current,
                replacement,
                accountKeys -> KeyRules.check(
                        replacement,
                        accountKeys.stream()
                                .filter(other -> !other.key().equals(key))
                                .toList()));
        return switch (done) {
            case Registration.Registered registered -> new Outcome.Done(registered.entry(), true);
            // Changed or deleted meanwhile by another call: answered as it now is to this bank.
            case Registration.Existing existing ->
                holds(caller, existing.entry().account())
                        ? refused(Refusal.of(
                                RefusalReason.KEY_ALREADY_REGISTERED,
                                "the key changed while this update ran: read it and update again"))
                        : refused(notFound(key));
            case Registration.Refused refusal -> refused(refusal.problem());
        };
    }

    /** Deletes the key; false (answered as not found) if no account of the caller's bank holds it. */
    public boolean delete(Caller caller, PixKey key) {
        Optional<KeyEntry> found = keys.find(key).filter(entry -> holds(caller, entry.account()));
        return found.isPresent() && keys.delete(key, found.get().account());
    }

    /** The key, if an account of the caller's bank holds it. */
    public Optional<KeyEntry> own(Caller caller, PixKey key) {
        return keys.find(key).filter(entry -> holds(caller, entry.account()));
    }

    /** The account's keys, if it is the caller's bank's; else none (as for an account without keys). */
    public List<KeyEntry> ofAccount(Caller caller, Id128 account) {
        return holds(caller, account) ? keys.ofAccount(account) : List.of();
    }

    private Optional<Refusal> checkAccount(Caller caller, Id128 account, String holderName, String holderTaxId) {
        if (!TaxId.isTaxId(holderTaxId)) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "holderTaxId",
                    "holderTaxId is a CPF (11 digits) or a CNPJ (14), with"
                            + " valid check digits and no punctuation"));
        }
        if (holderName == null || holderName.isBlank() || holderName.length() > HolderName.CHARS_MAX) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "holderName",
                    "holderName is 1 to " + HolderName.CHARS_MAX + " characters"));
        }
        // Another bank's account reads as one that does not exist: a bank learns nothing of others' customers here.
        if (!holds(caller, account) || accounts.statusOf(List.of(account)).get(account) != AccountStatus.CUSTOMER) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.UNKNOWN_ACCOUNT, "accountId", "accountId is no customer account of your bank"));
        }
        return Optional.empty();
    }

    private static boolean holds(Caller caller, Id128 account) {
        return AccessRules.accountHolder(caller, account).isEmpty();
    }

    private static Refusal alreadyRegistered(Caller caller, KeyEntry existing) {
        // Which account holds it is said to its own bank only: to another it is "someone's".
        String where = holds(caller, existing.account())
                ? "to account " + existing.account() + " of your bank"
                : "at another participant";
        return Refusal.ofField(
                RefusalReason.KEY_ALREADY_REGISTERED,
                "key",
                "the key is registered " + where + ": a claim moves a key between accounts");
    }

    static Refusal notFound(PixKey key) {
        return Refusal.of(
                RefusalReason.KEY_NOT_FOUND, "no key " + key.value() + " is registered to an account of your bank");
    }

    private static Outcome refused(Refusal problem) {
        return new Outcome.Refused(problem);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** For the registration's JSON: nothing else. */
    public static Map<String, Integer> keysMax() {
        return Map.of("person", KeyRules.PERSON_KEYS_MAX, "company", KeyRules.COMPANY_KEYS_MAX);
    }
}
