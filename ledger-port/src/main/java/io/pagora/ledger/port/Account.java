package io.pagora.ledger.port;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;

/**
 * An account as stored by the ledger. Balances are in the ledger's smallest unit (centavos on ledger 986)
 * and never negative; "balance" for a credit-normal account is credits − debits.
 */
public record Account(
        Id128 id,
        int ledger,
        int code,
        int flags,
        long debitsPending,
        long debitsPosted,
        long creditsPending,
        long creditsPosted,
        Id128 userData128,
        long userData64,
        int userData32,
        long timestamp) {

    public Account {
        Check.that(
                debitsPending >= 0 && debitsPosted >= 0 && creditsPending >= 0 && creditsPosted >= 0,
                "account %s has a negative balance field",
                id);
    }

    /** Posted credits minus posted debits: what a customer or reserve account holds. */
    public long creditBalancePosted() {
        return Math.subtractExact(creditsPosted, debitsPosted);
    }

    /** What can still be debited under debits_must_not_exceed_credits: posted credits minus all debits. */
    public long creditBalanceAvailable() {
        return Math.subtractExact(creditsPosted, Math.addExact(debitsPosted, debitsPending));
    }

    public boolean hasFlag(int flag) {
        return AccountFlags.has(flags, flag);
    }
}
