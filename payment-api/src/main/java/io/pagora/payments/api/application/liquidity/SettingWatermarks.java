package io.pagora.payments.api.application.liquidity;

import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.application.administration.ParticipantAdministration;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A bank's liquidity watermarks, set and read by the bank itself or the operator; for anyone else the bank does not
 * exist ({@link ParticipantAdministration#bank}, whose refusals it shares).
 */
public final class SettingWatermarks {

    /** A bank's watch ({@code null} without watermarks) with its reserve's available balance read now. */
    public record Standing(WatchedReserve watched, long availableCentavos) {}

    private final ParticipantAdministration administration;
    private final LiquidityWatches watches;
    private final Ledger ledger;
    private final Clock clock;

    public SettingWatermarks(
            ParticipantAdministration administration, LiquidityWatches watches, Ledger ledger, Clock clock) {
        this.administration = administration;
        this.watches = watches;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** Empty when the caller may not see the bank or it is not registered: answer as {@code bank-not-found}. */
    public Optional<Standing> set(Caller caller, BankId bank, Watermarks marks) {
        if (administration.bank(caller, bank).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(standing(watches.setWatermarks(bank, marks, clock.instant())));
    }

    /**
     * Empty when the caller may not see the bank or it is not registered; a bank without watermarks stands with
     * none ({@link Standing#watched()} null), its reserve read all the same.
     */
    public Optional<Standing> get(Caller caller, BankId bank) {
        if (administration.bank(caller, bank).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(watches.of(bank).map(this::standing).orElseGet(() -> new Standing(null, available(bank))));
    }

    private Standing standing(WatchedReserve watched) {
        return new Standing(watched, available(watched.bank()));
    }

    private long available(BankId bank) {
        List<Account> reserve = ledger.lookupAccounts(List.of(ChartOfAccounts.reserve(bank)));
        return reserve.isEmpty() ? 0 : reserve.getFirst().creditBalanceAvailable();
    }
}
