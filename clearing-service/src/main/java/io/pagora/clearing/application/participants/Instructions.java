package io.pagora.clearing.application.participants;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import java.time.Instant;
import java.util.List;

/**
 * Port: tells each payee's bank, over its stream, that a payment to one of its customers is reserved and waits
 * for its answer until its {@code answerBy}. Batched per bank, never one message exchange per payment. Returns only
 * once the instructions are durably stored; a redelivery may issue an instruction again (banks drop duplicates
 * by message id).
 */
public interface Instructions {

    void issue(List<Instruction> instructions);

    /**
     * One payment to instruct, with the instant its chain lapses in the ledger or earlier: the bank is never promised
     * more time than the ledger gives (a re-instructed chain keeps its first reservation's deadline).
     */
    record Instruction(PaymentRequested payment, Instant answerBy) {

        public Instruction {
            Check.that(payment != null && answerBy != null, "an instruction names a payment and its deadline");
        }
    }
}
