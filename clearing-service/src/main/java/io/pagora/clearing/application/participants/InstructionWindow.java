package io.pagora.clearing.application.participants;

import io.pagora.settlement.domain.BankId;
import java.util.Map;

/**
 * With participants, how many instructed payments may wait for each receiving bank's answers before clearing reserves
 * more for that bank: the requests path asks for room before each part of a poll, so it reserves no faster than each
 * bank answers, and a bank that answers slowly holds back only its own payments' part.
 */
public interface InstructionWindow {

    /** One poll's questions: its parts share one bounded wait, so a poll in many parts is not held many times over. */
    interface Poll {

        /**
         * Returns how many of the requests wanted for each receiving bank may be reserved now: at most as many as
         * wanted for each, and at least one in all, once some bank has room or once the poll's wait is spent. A bank
         * missing from the answer gets nothing this time.
         */
        Map<BankId, Integer> awaitRoom(Map<BankId, Integer> wanted) throws InterruptedException;
    }

    /** Starts a poll's wait. */
    Poll poll();
}
