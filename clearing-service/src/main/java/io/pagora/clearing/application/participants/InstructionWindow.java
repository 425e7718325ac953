package io.pagora.clearing.application.participants;

/**
 * With participants, how many instructed payments may wait for their banks' answers before clearing reserves more:
 * the requests path asks for room before each part of a poll, so it reserves no faster than the answers come back.
 */
public interface InstructionWindow {

    /** One poll's questions: its parts share one bounded wait, so a poll in many parts is not held many times over. */
    interface Poll {

        /**
         * Returns how many of {@code wanted} requests may be reserved now: at least one and at most {@code wanted},
         * once there is room or once the poll's wait is spent.
         */
        int awaitRoom(int wanted) throws InterruptedException;
    }

    /** Starts a poll's wait. */
    Poll poll();
}
