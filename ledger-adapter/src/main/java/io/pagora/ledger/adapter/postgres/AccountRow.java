package io.pagora.ledger.adapter.postgres;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;

/** A locked account row while a batch runs: balances change in memory, then are written back once. */
final class AccountRow {

    final Id128 id;
    final int ledger;
    final int code;
    final int flags;
    final Id128 userData128;
    final long userData64;
    final int userData32;
    final long timestamp;
    long debitsPending;
    long debitsPosted;
    long creditsPending;
    long creditsPosted;
    boolean dirty;

    AccountRow(Account account) {
        this.id = account.id();
        this.ledger = account.ledger();
        this.code = account.code();
        this.flags = account.flags();
        this.userData128 = account.userData128();
        this.userData64 = account.userData64();
        this.userData32 = account.userData32();
        this.timestamp = account.timestamp();
        this.debitsPending = account.debitsPending();
        this.debitsPosted = account.debitsPosted();
        this.creditsPending = account.creditsPending();
        this.creditsPosted = account.creditsPosted();
    }

    boolean debitsExceedCredits(long amount) {
        return AccountFlags.has(flags, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)
                && debitsPending + debitsPosted + amount > creditsPosted;
    }

    boolean creditsExceedDebits(long amount) {
        return AccountFlags.has(flags, AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)
                && creditsPending + creditsPosted + amount > debitsPosted;
    }

    Account toAccount() {
        return new Account(
                id,
                ledger,
                code,
                flags,
                debitsPending,
                debitsPosted,
                creditsPending,
                creditsPosted,
                userData128,
                userData64,
                userData32,
                timestamp);
    }
}
