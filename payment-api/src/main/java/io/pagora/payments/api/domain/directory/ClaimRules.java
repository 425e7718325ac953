package io.pagora.payments.api.domain.directory;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.util.Optional;

/**
 * Whether a bank may claim a key from the bank that holds it: never its own bank's key; a portability claim only for
 * the key's own holder (the same tax id: the holder moves banks); an ownership claim only of a phone or an e-mail (a
 * CPF, a CNPJ or a random key is its holder's for good) and by another person (the same person moves it by
 * portability).
 */
public final class ClaimRules {

    private ClaimRules() {}

    public static Optional<Refusal> check(
            Claim.Type type, KeyEntry current, String claimerBank, String currentBank, String holderTaxId) {
        if (claimerBank.equals(currentBank)) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.CLAIM_OF_OWN_KEY,
                    "key",
                    "the key is held by an account of your own bank: change it with PUT /directory/keys/{key}"));
        }
        if (type == Claim.Type.PORTABILITY && !current.holderTaxId().equals(holderTaxId)) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.CLAIM_NOT_ALLOWED,
                    "holderTaxId",
                    "a portability claim moves a key of its own holder: the holder's tax id differs (an ownership"
                            + " claim takes a phone or e-mail key from another person)"));
        }
        if (type == Claim.Type.OWNERSHIP) {
            KeyType keyType = current.key().type();
            if (keyType != KeyType.PHONE && keyType != KeyType.EMAIL) {
                return Optional.of(Refusal.ofField(
                        RefusalReason.CLAIM_NOT_ALLOWED,
                        "type",
                        "an ownership claim takes a phone or an e-mail key: a " + keyType + " key is its holder's"));
            }
            if (current.holderTaxId().equals(holderTaxId)) {
                return Optional.of(Refusal.ofField(
                        RefusalReason.CLAIM_NOT_ALLOWED,
                        "type",
                        "the key is already this holder's: move it to your bank with a portability claim"));
            }
        }
        return Optional.empty();
    }
}
