package io.pagora.ledger.port;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import java.util.Objects;

/** A request to create an account. Balances always start at zero; money arrives only by transfers. */
public record NewAccount(
        Id128 id, int ledger, int code, int flags, Id128 userData128, long userData64, int userData32) {

    public NewAccount {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userData128, "userData128");
        Check.that(
                (flags & ~AccountFlags.SUPPORTED) == 0, "unsupported account flags %s", Integer.toBinaryString(flags));
        Check.that(code >= 0 && code <= 0xFFFF, "account code is a u16: %d", code);
    }

    public static NewAccount of(Id128 id, int ledger, int code, int flags) {
        return new NewAccount(id, ledger, code, flags, Id128.ZERO, 0, 0);
    }

    public boolean linked() {
        return AccountFlags.has(flags, AccountFlags.LINKED);
    }

    public NewAccount withFlags(int newFlags) {
        return new NewAccount(id, ledger, code, newFlags, userData128, userData64, userData32);
    }
}
