package io.pagora.reporting.reconciliation.adapter;

import io.pagora.reporting.reconciliation.application.Reconciler;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code pagora.reporting.reconciliation.*}: the online reconciliation of the read model with the ledger
 * (see {@link Reconciler}). Off unless enabled; the local launcher enables it.
 *
 * @param enabled run the reconciliation (it then opens the ledger configured by {@code pagora.ledger.*})
 * @param interval pause between rounds once every due payment is judged (a round with work left is followed at once)
 * @param finalWithin a payment accepted longer ago than this must be final in the read model: more than the
 *     pending timeout, the expiry margin and the projection's lag together
 * @param startLookback at start, payments accepted this long before are the first judged
 * @param paymentLookupsPerRound ledger lookups of payments per round (each up to 2,729 payments)
 * @param accountsPerRound customer accounts whose balance is checked per balance check (all banks' accounts too)
 * @param balanceInterval the shortest time between two balance checks (each sums every settled payment by bank)
 * @param confirmAfter how long a quiet account must disagree, with the same ledger balance, before it is reported
 * @param detailsLogged mismatches logged with their details per round (all are counted)
 */
@ConfigurationProperties("pagora.reporting.reconciliation")
public record ReconciliationProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("5s") Duration interval,
        @DefaultValue("60s") Duration finalWithin,
        @DefaultValue("1h") Duration startLookback,
        @DefaultValue("4") int paymentLookupsPerRound,
        @DefaultValue("2000") int accountsPerRound,
        @DefaultValue("30s") Duration balanceInterval,
        @DefaultValue("30s") Duration confirmAfter,
        @DefaultValue("20") int detailsLogged) {

    public Reconciler.Settings settings() {
        return new Reconciler.Settings(finalWithin, startLookback, paymentLookupsPerRound, accountsPerRound,
                balanceInterval, confirmAfter, detailsLogged);
    }
}
