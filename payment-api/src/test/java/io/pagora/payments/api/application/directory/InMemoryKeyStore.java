package io.pagora.payments.api.application.directory;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The key store as the JDBC one keeps it, in memory: one key to one account, changes of an account serialized. */
public final class InMemoryKeyStore implements KeyStore {

    private final Map<String, KeyEntry> keys = new LinkedHashMap<>();
    private final Map<String, String> madeFor = new HashMap<>();

    @Override
    public synchronized Registration register(
            KeyEntry entry, String participant, String requestKey, Function<List<KeyEntry>, Optional<Refusal>> rules) {
        KeyEntry existing = keys.get(entry.key().value());
        if (existing != null) {
            return new Registration.Existing(existing);
        }
        Optional<Refusal> refused = rules.apply(ofAccount(entry.account()));
        if (refused.isPresent()) {
            return new Registration.Refused(refused.get());
        }
        keys.put(entry.key().value(), entry);
        if (requestKey != null) {
            madeFor.put(participant + " " + requestKey, entry.key().value());
        }
        return new Registration.Registered(entry);
    }

    @Override
    public synchronized Registration update(
            KeyEntry current, KeyEntry replacement, Function<List<KeyEntry>, Optional<Refusal>> rules) {
        KeyEntry now = keys.get(current.key().value());
        if (now == null) {
            return new Registration.Refused(Refusal.of(RefusalReason.KEY_NOT_FOUND, "gone"));
        }
        if (!now.sameAs(current)) {
            return new Registration.Existing(now);
        }
        Optional<Refusal> refused = rules.apply(ofAccount(replacement.account()));
        if (refused.isPresent()) {
            return new Registration.Refused(refused.get());
        }
        keys.put(replacement.key().value(), replacement);
        return new Registration.Registered(replacement);
    }

    @Override
    public synchronized Optional<KeyEntry> madeFor(String participant, String requestKey) {
        return Optional.ofNullable(madeFor.get(participant + " " + requestKey)).map(keys::get);
    }

    @Override
    public synchronized Optional<KeyEntry> find(PixKey key) {
        return Optional.ofNullable(keys.get(key.value()));
    }

    @Override
    public synchronized Map<PixKey, KeyEntry> findAll(Collection<PixKey> asked) {
        Map<PixKey, KeyEntry> found = new HashMap<>();
        for (PixKey key : asked) {
            find(key).ifPresent(entry -> found.put(key, entry));
        }
        return found;
    }

    @Override
    public synchronized List<KeyEntry> ofAccount(Id128 account) {
        return keys.values().stream()
                .filter(entry -> entry.account().equals(account))
                .sorted(Comparator.comparing(KeyEntry::createdAt))
                .toList();
    }

    @Override
    public synchronized boolean delete(PixKey key, Id128 account) {
        KeyEntry entry = keys.get(key.value());
        if (entry == null || !entry.account().equals(account)) {
            return false;
        }
        keys.remove(key.value());
        return true;
    }
}
