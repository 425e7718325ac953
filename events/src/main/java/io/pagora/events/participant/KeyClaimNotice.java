package io.pagora.events.participant;

import java.time.Instant;

/**
 * A claim on a PIX key, to a bank it concerns (docs/directory.md): the donor bank, which holds the key, when the
 * claim is opened ({@code status} OPEN: confirm or cancel it by {@code resolveBy}); and both banks when it is resolved
 * ({@code COMPLETED}: the key is the claimer's now; {@code CANCELLED}), with who or what resolved it. No payment:
 * {@code paymentId} is null.
 *
 * @param claimType {@code OWNERSHIP} (another person's key now) or {@code PORTABILITY} (the same holder's, to another
 *     bank)
 * @param role {@code DONOR} or {@code CLAIMER}: which of the two this bank is
 */
public record KeyClaimNotice(
        String id,
        String paymentId,
        String claimId,
        String key,
        String claimType,
        String role,
        String status,
        String resolution,
        Instant resolveBy,
        Instant occurredAt)
        implements ParticipantMessage {

    /** The notice of {@code claimId} in {@code status} to {@code role}: one id per state and bank, for good. */
    public static String idOf(String claimId, String status, String role) {
        return "claim-" + claimId + "-" + status.toLowerCase(java.util.Locale.ROOT) + "-"
                + role.toLowerCase(java.util.Locale.ROOT);
    }
}
