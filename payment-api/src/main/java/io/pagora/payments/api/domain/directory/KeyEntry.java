package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.time.Instant;
import java.util.Objects;

/**
 * A key as the directory holds it: the account it points to (at the bank that registered it), its holder, and when
 * it was created at that account.
 *
 * @param holderTaxId the holder's CPF (a person) or CNPJ (a company)
 */
public record KeyEntry(PixKey key, Id128 account, String holderName, String holderTaxId, Instant createdAt) {

    public KeyEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(createdAt, "createdAt");
        Check.that(ChartOfAccounts.bankOf(account).isPresent(), "a key points to a customer account: %s", account);
        Check.that(
                holderName != null && !holderName.isBlank() && holderName.length() <= HolderName.CHARS_MAX,
                "a holder name of 1..140 characters");
        Check.that(TaxId.isTaxId(holderTaxId), "a holder tax id is a CPF or a CNPJ");
    }

    public BankId bank() {
        return ChartOfAccounts.bankOf(account).orElseThrow();
    }

    public boolean company() {
        return TaxId.isCompany(holderTaxId);
    }

    /** Whether {@code other} registers the same key to the same account and holder: an idempotent repeat. */
    public boolean sameAs(KeyEntry other) {
        return key.equals(other.key)
                && account.equals(other.account)
                && holderName.equals(other.holderName)
                && holderTaxId.equals(other.holderTaxId);
    }
}
