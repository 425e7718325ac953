package io.pagora.payments.api.adapter.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.payments.api.application.intake.IdempotencyKeys;
import io.pagora.payments.api.application.returns.Returns;
import io.pagora.payments.api.application.returns.Returns.Prepared;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.ReturnRules;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bank that may not see a payment learns nothing of it from a return, not even from how long the answer took: the
 * same {@code 404} as for an unknown id, after the same ledger round trips. On the in-memory reference ledger, each
 * call counted.
 */
class ReturnLedgerCallsTest {

    private static final BankId PAYER_BANK = new BankId(41);
    private static final BankId PAYEE_BANK = new BankId(42);
    private static final BankId THIRD_BANK = new BankId(43);

    private final ReferenceLedger reference = ReferenceLedger.onWallClock();
    private final CountingLedger ledger = new CountingLedger(reference);
    private final TimeOrderedIds ids = new TimeOrderedIds(Clock.systemUTC());
    private final Returns returns = new Returns(
            new LedgerOriginalPayments(ledger),
            new ReturnRules(Duration.ofDays(90)),
            new NoKeys(),
            (caller, key, request) -> {
                throw new AssertionError("only the checks are under test: nothing is paid");
            },
            Clock.systemUTC());

    @Test
    void aThirdBanksReturnOfAnExistingPaymentCostsTheLedgerCallsOfAnUnknownId() {
        PaymentId settled = settledPayment();
        PaymentId unknown = ids.nextPaymentId();

        Prepared forUnknown = prepare(Caller.bank(THIRD_BANK.ispb()), unknown);
        int unknownCalls = ledger.calls;
        Prepared forAnother = prepare(Caller.bank(THIRD_BANK.ispb()), settled);
        int anotherBanksCalls = ledger.calls;

        assertThat(refusalOf(forUnknown)).isEqualTo(RefusalReason.UNKNOWN_PAYMENT);
        assertThat(refusalOf(forAnother)).isEqualTo(RefusalReason.UNKNOWN_PAYMENT);
        assertThat(anotherBanksCalls)
                .as("ledger calls for another bank's payment, as for an unknown id")
                .isEqualTo(unknownCalls);

        Prepared forPayee = prepare(Caller.bank(PAYEE_BANK.ispb()), settled);
        assertThat(forPayee).as("its payee's bank returns it").isInstanceOf(Prepared.Ready.class);
    }

    private Prepared prepare(Caller caller, PaymentId original) {
        ledger.calls = 0;
        return returns.prepare(
                caller,
                new IdempotencyKey("return-1"),
                new Returns.ReturnOrder(original, 1_00, ReturnReason.BE08, null, "back"));
    }

    private static RefusalReason refusalOf(Prepared prepared) {
        assertThat(prepared).isInstanceOf(Prepared.Refused.class);
        return ((Prepared.Refused) prepared).problem().type();
    }

    /** A payment from a customer of the payer's bank to one of the payee's bank, reserved and posted. */
    private PaymentId settledPayment() {
        Participants participants = new Participants(reference);
        participants.openCentralBank();
        for (BankId bank : List.of(PAYER_BANK, PAYEE_BANK, THIRD_BANK)) {
            participants.registerBank(bank);
            participants.openCustomers(bank, List.of(1L));
        }
        Id128 payer = ChartOfAccounts.customer(PAYER_BANK, 1);
        assertThat(participants.fundReserve(Id128.of(1), PAYER_BANK, 1_000_00)).isEqualTo(TransferResult.OK);
        assertThat(participants.fundCustomer(Id128.of(2), payer, 100_00)).isEqualTo(TransferResult.OK);
        Payment payment = new Payment(ids.nextPaymentId(), payer, ChartOfAccounts.customer(PAYEE_BANK, 1), 10_00);
        Settlement settlement = new Settlement(reference, 60);
        assertThat(settlement.reserve(List.of(payment)).getFirst()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(settlement.post(List.of(payment)).getFirst()).isInstanceOf(ResolutionOutcome.Posted.class);
        return payment.id();
    }

    /** No key names anything: no return here is a replay. */
    private static final class NoKeys implements IdempotencyKeys {
        @Override
        public Map<Scoped, Claimed> claimAll(List<Claim> claims, java.time.Instant acceptedAt) {
            throw new AssertionError("a return's preparation claims nothing");
        }

        @Override
        public Found find(List<Scoped> keys, List<ScopedId> ids) {
            return new Found(Map.of(), Map.of());
        }
    }

    /** The reference ledger, counting the requests made to it. */
    private static final class CountingLedger implements Ledger {
        private final Ledger delegate;
        int calls;

        CountingLedger(Ledger delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<AccountResult> createAccounts(List<NewAccount> accounts) {
            calls++;
            return delegate.createAccounts(accounts);
        }

        @Override
        public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
            calls++;
            return delegate.createTransfers(transfers);
        }

        @Override
        public List<Account> lookupAccounts(List<Id128> accountIds) {
            calls++;
            return delegate.lookupAccounts(accountIds);
        }

        @Override
        public List<Transfer> lookupTransfers(List<Id128> transferIds) {
            calls++;
            return delegate.lookupTransfers(transferIds);
        }

        @Override
        public List<Account> queryAccounts(int ledgerCode, long timestampAfter, int limit) {
            calls++;
            return delegate.queryAccounts(ledgerCode, timestampAfter, limit);
        }

        @Override
        public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
            calls++;
            return delegate.accountTransfers(account, sides, timestampAfter, limit);
        }

        @Override
        public String backendName() {
            return delegate.backendName();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
