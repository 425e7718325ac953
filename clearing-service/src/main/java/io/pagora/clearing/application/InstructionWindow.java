package io.pagora.clearing.application;

/**
 * With participants, how many instructed payments may wait for their banks' answers before clearing reserves more:
 * the requests path asks for room before each poll, so it reserves no faster than the answers come back.
 */
public interface InstructionWindow {

    /** Returns once there is room for another poll's instructions, or after a bounded wait. */
    void awaitRoom() throws InterruptedException;
}
