package io.pagora.payments.api.application.directory.claims;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.ClaimNotices;
import io.pagora.payments.api.application.directory.ClaimStore;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.payments.api.domain.PaymentRules.AccountStatus;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.ClaimRules;
import io.pagora.payments.api.domain.directory.HolderName;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TaxId;
import io.pagora.settlement.domain.access.AccessRules;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Claims on keys between banks (DICT's claim life cycle, docs/directory.md): the claimer bank opens one for an account
 * of its own; the donor bank, told on its stream, confirms (the key moves) or cancels it by its deadline; either bank
 * may cancel; past the deadline the directory completes an ownership claim and cancels a portability one. Only the two
 * banks see a claim: to any other it reads as one that does not exist.
 */
public final class ClaimingKeys {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ClaimingKeys.class);

    /** What a call answers. */
    public sealed interface Outcome {
        record Done(Claim claim, boolean created) implements Outcome {}

        record Refused(Refusal problem) implements Outcome {}
    }

    /** At most this many claims a listing answers, and a deadline round resolves. */
    public static final int LIST_MAX = 100;

    public static final int DUE_MAX = 1_000;

    private final ClaimStore claims;
    private final ClaimNotices notices;
    private final AccountDirectory accounts;
    private final Clock clock;
    private final Duration resolutionPeriod;
    private final Supplier<UUID> ids;

    public ClaimingKeys(
            ClaimStore claims,
            ClaimNotices notices,
            AccountDirectory accounts,
            Clock clock,
            Duration resolutionPeriod,
            Supplier<UUID> ids) {
        Check.that(resolutionPeriod.toSeconds() >= 1, "a resolution period of a second at least");
        this.claims = claims;
        this.notices = notices;
        this.accounts = accounts;
        this.clock = clock;
        this.resolutionPeriod = resolutionPeriod;
        this.ids = ids;
    }

    /** Opens a claim on {@code key} for the caller's {@code account}; the same Idempotency-Key answers it again. */
    public Outcome open(
            Caller caller,
            String requestKey,
            Claim.Type type,
            PixKey key,
            Id128 account,
            String holderName,
            String holderTaxId) {
        if (!TaxId.isTaxId(holderTaxId)) {
            return refused(Refusal.ofField(
                    RefusalReason.INVALID_TAX_ID,
                    "holderTaxId",
                    "holderTaxId is a CPF or a CNPJ with valid check digits"));
        }
        if (holderName == null || holderName.isBlank() || holderName.length() > HolderName.CHARS_MAX) {
            return refused(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "holderName",
                    "holderName is 1 to " + HolderName.CHARS_MAX + " characters"));
        }
        if (AccessRules.accountHolder(caller, account).isPresent()
                || accounts.statusOf(List.of(account)).get(account) != AccountStatus.CUSTOMER) {
            return refused(Refusal.ofField(
                    RefusalReason.UNKNOWN_ACCOUNT, "accountId", "accountId is no customer account of your bank"));
        }
        String claimer = caller.principalName();
        Instant now = now();
        ClaimStore.Opened opened = claims.open(key, claimer, requestKey, current -> {
            if (current == null) {
                return new ClaimStore.Decision(
                        null,
                        Refusal.ofField(
                                RefusalReason.KEY_NOT_FOUND,
                                "key",
                                "no key " + key.value() + " is registered: register it"));
            }
            String donor = Caller.BANK_PREFIX + current.bank();
            Optional<Refusal> refusal = ClaimRules.check(type, current, claimer, donor, holderTaxId);
            if (refusal.isPresent()) {
                return new ClaimStore.Decision(null, refusal.get());
            }
            return new ClaimStore.Decision(
                    new Claim(
                            ids.get(),
                            type,
                            key,
                            claimer,
                            account,
                            holderName,
                            holderTaxId,
                            donor,
                            current.account(),
                            Claim.Status.OPEN,
                            now,
                            now.plus(resolutionPeriod),
                            null,
                            null),
                    null);
        });
        return switch (opened) {
            case ClaimStore.Opened.Done done -> {
                if (done.claim().status() == Claim.Status.OPEN) {
                    // Again on a replay: the first notice may not have reached the broker.
                    tell(List.of(done.claim()));
                }
                yield new Outcome.Done(done.claim(), done.created());
            }
            case ClaimStore.Opened.Refused refusal -> refused(refusal.problem());
        };
    }

    /** The donor bank confirms: the key moves to the claimer's account. */
    public Outcome confirm(Caller caller, UUID id) {
        return resolve(caller, id, true, Claim.Resolution.DONOR_CONFIRMED, null);
    }

    /** Either bank cancels. */
    public Outcome cancel(Caller caller, UUID id) {
        return resolve(caller, id, false, Claim.Resolution.DONOR_CANCELLED, Claim.Resolution.CLAIMER_CANCELLED);
    }

    /** The claim, to its two banks only. */
    public Optional<Claim> read(Caller caller, UUID id) {
        return claims.find(id).filter(claim -> partyTo(caller, claim));
    }

    /** The caller's claims as donor or as claimer in {@code status}, oldest first. */
    public List<Claim> list(Caller caller, boolean asDonor, Claim.Status status) {
        return claims.of(caller.principalName(), asDonor, status, LIST_MAX);
    }

    /** Resolves every open claim past its deadline (a round of at most {@link #DUE_MAX}); answers how many. */
    public int resolveDue() {
        List<Claim> resolved = new ArrayList<>();
        for (UUID id : claims.due(now(), DUE_MAX)) {
            Claim claim = claims.resolve(id, Claim::atDeadline, now());
            if (claim.status() != Claim.Status.OPEN) {
                resolved.add(claim);
            }
        }
        if (!resolved.isEmpty()) {
            tell(resolved);
        }
        return resolved.size();
    }

    private Outcome resolve(
            Caller caller, UUID id, boolean donorOnly, Claim.Resolution byDonor, Claim.Resolution byClaimer) {
        Optional<Claim> found = read(caller, id);
        if (found.isEmpty()) {
            return refused(notFound(id));
        }
        boolean donor = caller.principalName().equals(found.get().donor());
        if (donorOnly && !donor) {
            return refused(Refusal.of(
                    RefusalReason.CLAIM_NOT_FOUND,
                    "claim " + id + " is confirmed by the bank that holds the key only"));
        }
        if (found.get().status() != Claim.Status.OPEN) {
            return refused(closed(found.get()));
        }
        Claim.Resolution how = donor ? byDonor : byClaimer;
        Claim ended = claims.resolve(id, claim -> how, now());
        if (ended.resolution() != how
                && !(ended.resolution() == Claim.Resolution.KEY_CHANGED
                        || ended.resolution() == Claim.Resolution.CLAIMER_LIMIT_REACHED)) {
            // Resolved meanwhile by the other bank or the deadline: answered as it is.
            return refused(closed(ended));
        }
        tell(List.of(ended));
        return new Outcome.Done(ended, true);
    }

    /**
     * The claims' notices; a broker that does not take them leaves the claims as they are (stored): the banks list
     * their claims (GET /directory/claims), and a replay of an opening tells the donor again.
     */
    private void tell(List<Claim> told) {
        try {
            notices.tell(told);
        } catch (RuntimeException e) {
            log.warn(
                    "claims: {} notices not delivered to the streams (the banks read them by listing): {}",
                    told.size(),
                    e.toString());
        }
    }

    private static boolean partyTo(Caller caller, Claim claim) {
        return caller.principalName().equals(claim.claimer())
                || caller.principalName().equals(claim.donor());
    }

    private static Refusal notFound(UUID id) {
        return Refusal.of(RefusalReason.CLAIM_NOT_FOUND, "no claim " + id + " involves your bank");
    }

    private static Refusal closed(Claim claim) {
        return Refusal.of(
                RefusalReason.CLAIM_CLOSED,
                "claim " + claim.id() + " is " + claim.status() + " (" + claim.resolution() + ") already");
    }

    private static Outcome refused(Refusal problem) {
        return new Outcome.Refused(problem);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
