package io.pagora.payments.api.application.directory;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Where the directory keeps its keys, one row per key, shared by every payment-api instance. */
public interface KeyStore {

    /** What a registration did. */
    sealed interface Registration {
        /** The key is now the account's. */
        record Registered(KeyEntry entry) implements Registration {}

        /** The key was there already, as it is now (the same account and holder: a repeat; else a conflict). */
        record Existing(KeyEntry entry) implements Registration {}

        /** The rules refused it, given the account's keys; nothing was written. */
        record Refused(Refusal problem) implements Registration {}
    }

    /**
     * Registers {@code entry} unless its key exists, in one transaction in which the account's keys cannot change
     * (two registrations to one account never both pass its key limit): {@code rules} sees the account's keys and may
     * refuse.
     */
    Registration register(
            KeyEntry entry, String participant, String requestKey, Function<List<KeyEntry>, Optional<Refusal>> rules);

    /**
     * Replaces {@code current} by {@code replacement} (the same key) if the key is still as {@code current} says, in
     * one transaction with the target account's keys locked; {@code rules} sees them. Answers {@code Existing} with the
     * key as it is if it changed meanwhile (or a {@code Refused} entry-less answer if it is gone).
     */
    Registration update(KeyEntry current, KeyEntry replacement, Function<List<KeyEntry>, Optional<Refusal>> rules);

    /** The random key {@code participant} registered under {@code requestKey} (its Idempotency-Key), if any. */
    Optional<KeyEntry> madeFor(String participant, String requestKey);

    Optional<KeyEntry> find(PixKey key);

    /** Every key of {@code keys} the directory holds; one statement. */
    Map<PixKey, KeyEntry> findAll(Collection<PixKey> keys);

    /** The account's keys, oldest first. */
    List<KeyEntry> ofAccount(Id128 account);

    /** Deletes the key if it points to {@code account}; true if it did. */
    boolean delete(PixKey key, Id128 account);
}
