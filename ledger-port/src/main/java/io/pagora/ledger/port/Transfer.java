package io.pagora.ledger.port;

import io.pagora.kernel.Id128;

/**
 * A transfer as stored by the ledger: immutable once created. Post and void transfers carry the
 * accounts, ledger and code of the pending transfer they resolve. {@code timestamp} is the ledger's
 * nanosecond clock at creation; a pending transfer expires at {@code timestamp + timeoutSeconds·10⁹}.
 */
public record Transfer(
        Id128 id,
        Id128 debitAccountId,
        Id128 creditAccountId,
        long amount,
        Id128 pendingId,
        Id128 userData128,
        long userData64,
        int userData32,
        int timeoutSeconds,
        int ledger,
        int code,
        int flags,
        long timestamp) {

    public boolean hasFlag(int flag) {
        return TransferFlags.has(flags, flag);
    }
}
