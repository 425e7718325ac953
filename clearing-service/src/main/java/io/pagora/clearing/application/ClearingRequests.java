package io.pagora.clearing.application;

import java.util.List;

/**
 * The requests path: clears one poll of requested payments with a constant number of ledger requests. Two wirings
 * implement it, one per way of reaching the receiving banks: the in-process bank answers within the poll
 * ({@code bank.SettlingWithTheBank}); participants are instructed and answer later
 * ({@code participants.InstructingParticipants}).
 *
 * <p>Idempotent: transfer ids derive from payment ids, so clearing a poll again after a crash at any point (a
 * redelivery) reproduces the same ledger requests and the same outcomes. Any exception (the ledger or Kafka
 * unavailable) leaves the poll uncommitted, to be cleared again.
 */
public interface ClearingRequests {

    Report clear(List<ClearingRequest> requests);
}
