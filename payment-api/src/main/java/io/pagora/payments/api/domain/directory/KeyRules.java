package io.pagora.payments.api.domain.directory;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.util.List;
import java.util.Optional;

/**
 * The directory's rules for a key registered to an account, decidable from the key, its holder and the account's
 * other keys: a CPF or CNPJ key is its holder's own tax id; an account has one holder; a person's account holds at
 * most {@value #PERSON_KEYS_MAX} keys and a company's {@value #COMPANY_KEYS_MAX} (PIX's limits).
 */
public final class KeyRules {

    public static final int PERSON_KEYS_MAX = 5;
    public static final int COMPANY_KEYS_MAX = 20;

    private KeyRules() {}

    public static int keysMax(String holderTaxId) {
        return TaxId.isCompany(holderTaxId) ? COMPANY_KEYS_MAX : PERSON_KEYS_MAX;
    }

    /** Why {@code entry} cannot be the account's next key, given the keys it holds now (without {@code entry}'s). */
    public static Optional<Refusal> check(KeyEntry entry, List<KeyEntry> accountKeys) {
        PixKey key = entry.key();
        if (key.type() == KeyType.CPF && (entry.company() || !key.value().equals(entry.holderTaxId()))) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.KEY_HOLDER_MISMATCH, "key", "a CPF key is its holder's own CPF (holderTaxId)"));
        }
        if (key.type() == KeyType.CNPJ && (!entry.company() || !key.value().equals(entry.holderTaxId()))) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.KEY_HOLDER_MISMATCH, "key", "a CNPJ key is its holder's own CNPJ (holderTaxId)"));
        }
        for (KeyEntry other : accountKeys) {
            if (!other.holderTaxId().equals(entry.holderTaxId())) {
                return Optional.of(Refusal.ofField(
                        RefusalReason.KEY_HOLDER_MISMATCH,
                        "holderTaxId",
                        "the account's other keys name another holder: an account has one holder"));
            }
        }
        int keysMax = keysMax(entry.holderTaxId());
        if (accountKeys.size() >= keysMax) {
            return Optional.of(Refusal.of(
                            RefusalReason.KEY_LIMIT_REACHED,
                            "the account holds " + accountKeys.size() + " keys, the most a "
                                    + (entry.company() ? "company's" : "person's") + " account may (" + keysMax
                                    + "): delete one first")
                    .withNumber("keysMax", keysMax));
        }
        return Optional.empty();
    }
}
