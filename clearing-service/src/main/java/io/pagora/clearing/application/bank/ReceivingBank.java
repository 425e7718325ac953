package io.pagora.clearing.application.bank;

import io.pagora.clearing.domain.BankAnswer;
import io.pagora.settlement.domain.Payment;
import java.util.List;

/**
 * Port to the receiving banks (the payees' PSPs): asks whether they accept crediting each reserved
 * payment. One call per clearing batch, never one per payment.
 *
 * <p>Contract: one answer per payment, in order. For a redelivered payment (same id) an
 * implementation should give the same answer, or at least an answer the ledger can reconcile:
 * clearing trusts the ledger's earlier resolution over a new answer. Transport failures are
 * {@link BankAnswer.NoAnswer}, not exceptions; an exception makes the whole batch retry.
 */
public interface ReceivingBank {

    List<BankAnswer> decide(List<Payment> payments);
}
