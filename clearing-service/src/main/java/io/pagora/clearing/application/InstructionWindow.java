package io.pagora.clearing.application;

/**
 * With participants, how many instructed payments may wait for their banks' answers before clearing reserves more:
 * the requests path asks for room before each part of a poll, so it reserves no faster than the answers come back.
 */
public interface InstructionWindow {

    /**
     * Returns how many of {@code wanted} requests may be reserved now: at least one and at most {@code wanted}, once
     * there is room or after a bounded wait.
     */
    int awaitRoom(int wanted) throws InterruptedException;
}
