package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.settlement.domain.BankId;
import java.util.List;
import java.util.Map;

/** What the reconciliation reads from the read model. Every call is one bounded, indexed query. */
public interface ReconciliationReadModel {

    /** One payment as projected. Parties outside the account scheme are kept: the reconciliation reports them. */
    record PaymentRow(Id128 paymentId, Id128 payer, Id128 payee, long amountCentavos, PaymentStatus status) {}

    /** Payments with {@code after < payment_id < before}, in id order, at most {@code limit}. */
    List<PaymentRow> paymentsBetween(Id128 after, Id128 before, int limit);

    /** Customer accounts with a statement entry and an id above {@code after}, in id order, at most {@code limit}. */
    List<Id128> customersAfter(Id128 after, int limit);

    /** Σ DEBIT and Σ CREDIT of each account's statement (accounts without entries are left out). */
    Map<Id128, PaymentFlows> customerFlows(List<Id128> accounts);

    /** Each bank's settled interbank payments, sent and received, for every bank that has any. */
    Map<BankId, PaymentFlows> bankFlows();
}
