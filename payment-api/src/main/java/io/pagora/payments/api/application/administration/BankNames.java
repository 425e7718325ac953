package io.pagora.payments.api.application.administration;

import io.pagora.settlement.domain.BankId;
import java.util.Optional;

/** The display names of registered banks (the ledger has no room for them). */
public interface BankNames {

    /** @param inserted true if this call stored {@code name}, false if the bank had a name already */
    record Stored(String name, boolean inserted) {}

    /** Stores {@code name} for {@code bank} unless it has one; answers the name it has now. */
    Stored register(BankId bank, String name);

    /** The name {@code bank} was registered under, if it was. */
    Optional<String> nameOf(BankId bank);
}
