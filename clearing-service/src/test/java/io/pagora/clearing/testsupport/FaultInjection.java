package io.pagora.clearing.testsupport;

import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.events.PaymentOutcome;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.Payment;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the service's real beans (never replaces them) with decorators that count calls and fire the
 * armed {@link Faults}: the PostgreSQL ledger, the simulated receiving bank, the Kafka outcome
 * publisher. Registered into the application context by the test, so production code has no hooks.
 */
public final class FaultInjection implements BeanPostProcessor {

    private final Faults faults;

    public FaultInjection(Faults faults) {
        this.faults = faults;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return switch (bean) {
            case Ledger ledger -> new CountingLedger(ledger, faults);
            case ReceivingBank bank -> new HookedBank(bank, faults);
            case OutcomePublisher publisher -> new HookedPublisher(publisher, faults);
            default -> bean;
        };
    }

    /** Counts ledger requests by phase; fires ledger faults before or after the real request. */
    static final class CountingLedger extends ForwardingLedger {
        private final Faults faults;

        CountingLedger(Ledger delegate, Faults faults) {
            super(delegate);
            this.faults = faults;
        }

        @Override
        public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
            Faults.Phase phase = Faults.phaseOf(transfers);
            faults.ledgerRequests.incrementAndGet();
            faults.requestsByPhase[phase.ordinal()].incrementAndGet();
            faults.ledgerPoint(phase, Faults.When.BEFORE);
            faults.ledgerPoison(transfers);
            List<TransferResult> results = delegate.createTransfers(transfers);
            faults.ledgerPoint(phase, Faults.When.AFTER);
            return results;
        }

        @Override
        public List<AccountResult> createAccounts(List<NewAccount> accounts) {
            faults.ledgerRequests.incrementAndGet();
            return delegate.createAccounts(accounts);
        }
    }

    record HookedBank(ReceivingBank delegate, Faults faults) implements ReceivingBank {
        @Override
        public List<BankAnswer> decide(List<Payment> payments) {
            faults.bankCalls.incrementAndGet();
            faults.bankPoint(payments);
            return delegate.decide(payments);
        }
    }

    record HookedPublisher(OutcomePublisher delegate, Faults faults) implements OutcomePublisher {
        @Override
        public void publish(List<PaymentOutcome> outcomes, Set<String> payerOnly) {
            faults.publisherPoint();
            delegate.publish(outcomes, payerOnly);
        }
    }
}
