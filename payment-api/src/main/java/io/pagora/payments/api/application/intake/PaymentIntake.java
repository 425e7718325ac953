package io.pagora.payments.api.application.intake;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claim;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claimed;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Found;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.ScopedId;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Stored;
import io.pagora.payments.api.application.intake.PaymentPublisher.Publication;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.payments.api.domain.PaymentRules.AccountStatus;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.KeyedPayment;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.AccessRules;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Accepts payments: validates them, claims their idempotency keys, and publishes
 * {@link PaymentRequested} to the broker, answering only after the broker acknowledged.
 *
 * <p>A single payment is a batch of one; a batch costs a constant number of round trips whatever its
 * size: one ledger lookup for the accounts not yet known, one SQL statement for all keys, and all
 * Kafka sends before one bounded wait for all acknowledgements.
 *
 * <p>Exactly-once, end to end: the key row is written before the event is sent, with the payment id
 * it names. A retry with the same key and request (after a crash, a timeout, a 503) re-publishes the
 * same event — same payment id, same acceptedAt — and clearing, idempotent by payment id, moves the
 * money at most once. The same key with a different request is refused and nothing is published. One row holds a
 * payment's key and its end-to-end id (see {@link IdempotencyKeys}), written by the same statement.
 *
 * <p>Only the payer's bank may move its customers' money: an order whose payer account is not at the
 * caller's bank is answered exactly as one whose payer account does not exist (so another bank's customers
 * cannot be told from ids nobody holds), counted as {@link AccessRefusal#FOREIGN_ACCOUNT}, and goes no further:
 * no ledger lookup, no key claimed, nothing published. Keys are the caller's own ({@link Scoped}).
 *
 * <p>Over 400 lines on purpose: a batch's checks run in order over the same per-order arrays (outcomes, key uses),
 * each narrowing the candidates of the next; split, the steps would pass those arrays between classes.
 */
public final class PaymentIntake {

    /** Orders admitted with an old end-to-end id are looked up by two names each, in look-ups of at most this many. */
    private static final int FIND_ORDERS_MAX = IdempotencyKeys.FIND_KEYS_MAX / 2;

    /** What happened to one payment order. */
    public sealed interface Outcome {
        /**
         * The broker holds the payment; {@code replayed} if its key or end-to-end id was claimed by an earlier
         * request; {@code endToEndId} the one its bank gave or the switch made.
         */
        record Accepted(PaymentId paymentId, Instant acceptedAt, boolean replayed, String endToEndId)
                implements Outcome {}

        /**
         * Final: no payment exists under the key and none will (nothing was published for it, by this request or an
         * earlier one). A client may pay again under a new key.
         */
        record Rejected(Refusal problem) implements Outcome {}

        /**
         * Sent to the broker but not confirmed in time, or a replay (an earlier request may have published it) the
         * broker could not take: the payment may be accepted or not, and is never reported as refused, or a client
         * would pay again under a new key. The client retries with the same Idempotency-Key and request, which name
         * the same payment and accept it at most once.
         */
        record Unknown(Refusal problem) implements Outcome {}
    }

    /**
     * One order as parsed, with who sent it: either a key and a well-formed request, or the problem that made
     * parsing fail. Each order carries its own caller: a group commit merges concurrent requests of different
     * callers into one {@link #acceptAll}.
     */
    public record Order(
            Caller caller, IdempotencyKey key, PaymentRequest request, KeyedPayment keyed, Refusal problem) {
        public Order {
            Check.that(caller != null, "every order has a caller");
            Check.that(request == null || keyed == null, "an order names its payee by account or by key");
            Check.that(
                    (problem == null) == (key != null && (request != null || keyed != null)),
                    "an order is parsed or has a problem");
        }

        public static Order of(Caller caller, IdempotencyKey key, PaymentRequest request) {
            return new Order(caller, key, request, null, null);
        }

        /** A payment whose payee is named by key: resolved to an account by the intake's first step. */
        public static Order byKey(Caller caller, IdempotencyKey key, KeyedPayment keyed) {
            return new Order(caller, key, null, keyed, null);
        }

        public static Order malformed(Caller caller, Refusal problem) {
            return new Order(caller, null, null, null, problem);
        }

        /** The key as this order's caller owns it. */
        Scoped scopedKey() {
            return new Scoped(caller, key);
        }
    }

    private final PaymentRules rules;
    private final AccountDirectory accounts;
    private final IdempotencyKeys keys;
    private final PaymentPublisher publisher;
    private final TimeOrderedIds ids;
    private final Clock clock;
    private final Admission admission;
    private final AccessRefusals refusals;
    private final UnknownAccountLimit unknownAccounts;
    private final PayeeKeys payees;

    public PaymentIntake(
            PaymentRules rules,
            AccountDirectory accounts,
            IdempotencyKeys keys,
            PaymentPublisher publisher,
            TimeOrderedIds ids,
            Clock clock,
            Admission admission,
            AccessRefusals refusals,
            UnknownAccountLimit unknownAccounts,
            PayeeKeys payees) {
        this.rules = rules;
        this.payees = payees;
        this.accounts = accounts;
        this.keys = keys;
        this.publisher = publisher;
        this.ids = ids;
        this.clock = clock;
        this.admission = admission;
        this.refusals = refusals;
        this.unknownAccounts = unknownAccounts;
    }

    public Outcome accept(Caller caller, IdempotencyKey key, PaymentRequest request) {
        return acceptAll(List.of(Order.of(caller, key, request))).getFirst();
    }

    /**
     * One outcome per order, in order. The steps run in this order, each over the orders the previous
     * ones left open; an order refused by a step gets its outcome there and is not looked at again.
     */
    public List<Outcome> acceptAll(List<Order> orders) {
        // 0. Past capacity, nothing is claimed or published: every order is refused at once.
        Optional<Refusal> overloaded = admission.refusal();
        if (overloaded.isPresent()) {
            return Collections.nCopies(orders.size(), new Outcome.Rejected(overloaded.get()));
        }
        orders = payees.resolve(orders);
        Outcome[] outcomes = new Outcome[orders.size()];
        Map<Integer, Stored> oldIdReplays = new HashMap<>();
        List<Integer> valid = checkRequests(orders, outcomes, oldIdReplays);
        List<Integer> admissible = checkAccounts(orders, valid, outcomes);
        KeyUses uses = KeyUses.of(orders, admissible);
        if (!uses.firstUse().isEmpty()) {
            Instant acceptedAt = clock.instant().truncatedTo(ChronoUnit.MICROS); // what timestamptz stores
            Map<Scoped, Claimed> claimed = claimKeys(orders, uses, oldIdReplays, acceptedAt);
            publish(orders, uses, claimed, outcomes);
        }
        followFirstUses(orders, uses, outcomes);
        for (int i = 0; i < outcomes.length; i++) {
            Check.that(outcomes[i] != null, "order %d has an outcome", i);
        }
        return List.of(outcomes);
    }

    /**
     * 1. Everything decidable without I/O, the caller's right to the payer account last (after the checks a
     * missing payer would fail too, so a foreign payer and a missing one are answered alike in every case).
     * Answers the indexes of the orders still open.
     *
     * @param oldIdReplays filled with what names the payment of each order admitted with an old end-to-end id
     */
    private List<Integer> checkRequests(List<Order> orders, Outcome[] outcomes, Map<Integer, Stored> oldIdReplays) {
        Instant now = clock.instant();
        List<Integer> valid = new ArrayList<>(orders.size());
        Map<Integer, Refusal> aged = new LinkedHashMap<>();
        for (int i = 0; i < orders.size(); i++) {
            Order order = orders.get(i);
            Optional<Refusal> problem = order.problem() != null
                    ? Optional.of(order.problem())
                    : rules.checkRequest(order.request())
                            .or(() -> checkPayer(order))
                            .or(() -> rules.checkEndToEndId(order.request(), now));
            if (problem.isPresent()) {
                outcomes[i] = new Outcome.Rejected(problem.get());
                continue;
            }
            Optional<Refusal> age = rules.checkEndToEndIdAge(order.request(), now);
            if (age.isPresent()) {
                aged.put(i, age.get());
            } else {
                valid.add(i);
            }
        }
        if (aged.isEmpty()) {
            return valid;
        }
        // An old id is refused only for a new payment. While the key is kept the request is a replay (or a reuse of
        // the key, which the claim answers); while the id's own claim is kept and names a payment made with this
        // very request, it is that payment's replay under another key. What was found names the payment, and
        // nothing is claimed for it: the retention job may drop a day's keys between this look-up and the claim,
        // which would then take the key for a new payment under the old id. Rare: clients retry within minutes.
        List<Integer> agedOrders = List.copyOf(aged.keySet());
        for (int from = 0; from < agedOrders.size(); from += FIND_ORDERS_MAX) {
            List<Integer> slice = agedOrders.subList(from, Math.min(agedOrders.size(), from + FIND_ORDERS_MAX));
            List<Scoped> names = new ArrayList<>(slice.size());
            List<ScopedId> pixIds = new ArrayList<>(slice.size());
            for (int i : slice) {
                names.add(orders.get(i).scopedKey());
                pixIds.add(pixIdOf(orders.get(i)));
            }
            Found found = keys.find(
                    names.stream().distinct().toList(),
                    pixIds.stream().distinct().toList());
            for (int i : slice) {
                Order order = orders.get(i);
                Stored key = found.byKey().get(order.scopedKey());
                Stored pixId = found.byId().get(pixIdOf(order));
                if (key != null) {
                    oldIdReplays.put(i, key);
                    valid.add(i);
                } else if (pixId != null
                        && Arrays.equals(pixId.requestSha256(), order.request().fingerprint())) {
                    oldIdReplays.put(
                            i,
                            new Stored(
                                    order.scopedKey(),
                                    pixId.requestSha256(),
                                    pixId.paymentId(),
                                    pixId.acceptedAt(),
                                    false,
                                    pixId.endToEndId()));
                    valid.add(i);
                } else {
                    outcomes[i] = new Outcome.Rejected(aged.get(i));
                }
            }
        }
        valid.sort(null);
        return valid;
    }

    /** A payer account not at the caller's bank: counted, and answered as the unknown payer it is to this caller. */
    private Optional<Refusal> checkPayer(Order order) {
        Optional<AccessRefusal> refusal =
                AccessRules.accountHolder(order.caller(), order.request().payer());
        refusal.ifPresent(reason -> refusals.refused(order.caller(), reason));
        return refusal.map(reason -> PaymentRules.unknownPayer(order.request()));
    }

    /**
     * 2. One ledger lookup for every account not known to exist. Answers the indexes still open. A caller that
     * spent its allowance of unknown-account answers about other banks' customers is refused before the lookup
     * ({@link UnknownAccountLimit}), whether the payee exists or not.
     */
    private List<Integer> checkAccounts(List<Order> orders, List<Integer> candidates, Outcome[] outcomes) {
        List<Integer> valid = new ArrayList<>(candidates.size());
        for (int i : candidates) {
            Optional<Refusal> limited = unknownAccounts.refusal(
                    orders.get(i).caller(), orders.get(i).request());
            if (limited.isPresent()) {
                outcomes[i] = new Outcome.Rejected(limited.get());
            } else {
                valid.add(i);
            }
        }
        Set<Id128> accountIds = new HashSet<>();
        for (int i : valid) {
            accountIds.add(orders.get(i).request().payer());
            accountIds.add(orders.get(i).request().payee());
        }
        Map<Id128, AccountStatus> statuses = accountIds.isEmpty() ? Map.of() : accounts.statusOf(accountIds);
        List<Integer> admissible = new ArrayList<>(valid.size());
        for (int i : valid) {
            PaymentRequest request = orders.get(i).request();
            Optional<Refusal> problem =
                    rules.checkAccounts(request, statuses.get(request.payer()), statuses.get(request.payee()));
            if (problem.isPresent()) {
                unknownAccounts.answered(orders.get(i).caller(), request, problem.get());
                outcomes[i] = new Outcome.Rejected(problem.get());
            } else {
                admissible.add(i);
            }
        }
        return admissible;
    }

    /**
     * 3. A key used twice in one batch: the first use claims it, later ones follow it.
     *
     * @param fingerprints each admissible order's request fingerprint, by order index (null for the others)
     * @param firstUse each key's first admissible order, in order of first use
     * @param laterUses the admissible orders whose key an earlier order of the batch already uses
     */
    private record KeyUses(byte[][] fingerprints, Map<Scoped, Integer> firstUse, List<Integer> laterUses) {

        static KeyUses of(List<Order> orders, List<Integer> admissible) {
            byte[][] fingerprints = new byte[orders.size()][];
            Map<Scoped, Integer> firstUse = new LinkedHashMap<>();
            List<Integer> laterUses = new ArrayList<>();
            for (int i : admissible) {
                fingerprints[i] = orders.get(i).request().fingerprint();
                // Scoped by caller: two callers' equal keys in one group commit are two keys.
                if (firstUse.putIfAbsent(orders.get(i).scopedKey(), i) != null) {
                    laterUses.add(i);
                }
            }
            return new KeyUses(fingerprints, firstUse, laterUses);
        }
    }

    /**
     * 4. One SQL statement claims every key with its end-to-end id, each with a new payment id it keeps if it is new
     * (and the id the switch makes from it when the order gives none). An order admitted with an old end-to-end id
     * claims nothing: what its look-up found names its payment.
     */
    private Map<Scoped, Claimed> claimKeys(
            List<Order> orders, KeyUses uses, Map<Integer, Stored> oldIdReplays, Instant acceptedAt) {
        List<Claim> claims = new ArrayList<>(uses.firstUse().size());
        Map<Scoped, Claimed> claimed = new HashMap<>(uses.firstUse().size() * 2);
        uses.firstUse().forEach((key, i) -> {
            Stored found = oldIdReplays.get(i);
            if (found != null) {
                claimed.put(key, new Claimed(found, null));
            } else {
                PaymentId candidate = ids.nextPaymentId();
                claims.add(new Claim(
                        key,
                        uses.fingerprints()[i],
                        candidate,
                        orders.get(i).request().endToEndIdOf(candidate, acceptedAt)));
            }
        });
        if (!claims.isEmpty()) {
            claimed.putAll(keys.claimAll(claims, acceptedAt));
        }
        return claimed;
    }

    /** An order's own end-to-end id, as its payer's bank's (the order gives the id). */
    private static ScopedId pixIdOf(Order order) {
        return new ScopedId(order.caller(), new PixId(order.request().endToEndId()));
    }

    /**
     * The payment an order names, once its key and its end-to-end id are claimed, or the refusal.
     *
     * @param firstClaim true when this request's claim created the payment (nothing published it before)
     */
    private record Naming(
            PaymentId paymentId, Instant acceptedAt, String endToEndId, boolean firstClaim, Refusal refusal) {}

    /**
     * A key names a payment made with another request: refused. Else the end-to-end id decides: it is the key's own
     * (new, or replayed), or another key's, naming an earlier payment of the payer's bank — the same request sent
     * under another key is a replay of that payment; another request is a reuse of the id, refused.
     */
    private static Naming naming(Order order, byte[] fingerprint, Claimed claimed) {
        Check.that(claimed != null, "every claimed key is answered: %s", order.scopedKey());
        Stored key = claimed.key();
        if (!Arrays.equals(key.requestSha256(), fingerprint)) {
            return refused(Refusal.of(
                    RefusalReason.IDEMPOTENCY_KEY_REUSED,
                    "this Idempotency-Key already names payment " + key.paymentId()
                            + " made with a different request; use a new key for a new payment"));
        }
        Stored pixId = claimed.idOfAnotherKey();
        if (pixId == null) {
            return new Naming(key.paymentId(), key.acceptedAt(), key.endToEndId(), key.inserted(), null);
        }
        // The switch makes ids from new payment ids: only a bank's own id can be another key's.
        Check.that(
                order.request().endToEndId() != null,
                "a made end-to-end id %s names two payments, %s and %s",
                pixId.endToEndId(),
                key.paymentId(),
                pixId.paymentId());
        if (Arrays.equals(pixId.requestSha256(), fingerprint)) {
            return new Naming(pixId.paymentId(), pixId.acceptedAt(), pixId.endToEndId(), false, null);
        }
        String field = PaymentRules.pixIdField(order.request());
        return refused(Refusal.ofField(
                order.request().isReturn() ? RefusalReason.RETURN_ID_REUSED : RefusalReason.END_TO_END_ID_REUSED,
                field,
                field + " " + order.request().endToEndId()
                        + " already names payment " + pixId.paymentId()
                        + ", made with a different request: a PIX id names"
                        + " one payment of its bank"));
    }

    private static Naming refused(Refusal refusal) {
        return new Naming(null, null, null, false, refusal);
    }

    /**
     * 5. Publish new and replayed payments alike; refuse a key or an end-to-end id reused for another request.
     * All sends go out before one bounded wait for all acknowledgements.
     */
    private void publish(List<Order> orders, KeyUses uses, Map<Scoped, Claimed> claimed, Outcome[] outcomes) {
        int firstUses = uses.firstUse().size();
        List<Integer> publishing = new ArrayList<>(firstUses);
        List<Naming> publishingNames = new ArrayList<>(firstUses);
        List<PaymentRequested> events = new ArrayList<>(firstUses);
        for (Map.Entry<Scoped, Integer> use : uses.firstUse().entrySet()) {
            int i = use.getValue();
            Naming naming = naming(orders.get(i), uses.fingerprints()[i], claimed.get(use.getKey()));
            if (naming.refusal() != null) {
                outcomes[i] = new Outcome.Rejected(naming.refusal());
                continue;
            }
            publishing.add(i);
            publishingNames.add(naming);
            PaymentRequest request = orders.get(i).request();
            // The row's id, as claimed; a row that holds none (claimed before ids were kept in it) makes it again.
            String endToEndId = naming.endToEndId() != null
                    ? naming.endToEndId()
                    : request.endToEndIdOf(naming.paymentId(), naming.acceptedAt())
                            .value();
            events.add(request.toEvent(naming.paymentId(), naming.acceptedAt(), endToEndId));
        }
        List<Publication> publications = events.isEmpty() ? List.of() : publisher.publishAll(events);
        Check.that(publications.size() == events.size(), "one publication per event");
        for (int p = 0; p < publishing.size(); p++) {
            outcomes[publishing.get(p)] =
                    outcome(publishingNames.get(p), events.get(p).endToEndId(), publications.get(p));
        }
    }

    /**
     * REJECTED only when no payment exists under the key and none will: a payment this request was the first to
     * claim and never handed to the broker. A replay's first attempt may have been published (it may have been
     * answered UNKNOWN) and may settle, so a replay the broker could not take is UNKNOWN, never a refusal.
     */
    private static Outcome outcome(Naming naming, String endToEndId, Publication publication) {
        return switch (publication) {
            case Publication.Acked acked ->
                new Outcome.Accepted(naming.paymentId(), naming.acceptedAt(), !naming.firstClaim(), endToEndId);
            case Publication.NotSent notSent ->
                naming.firstClaim()
                        ? new Outcome.Rejected(Refusal.of(
                                RefusalReason.BROKER_UNAVAILABLE,
                                "the message broker could not take the payment (" + notSent.reason() + "); nothing was"
                                        + " published: retry with the same Idempotency-Key and request"))
                        : replayNotSent(naming.paymentId().toString(), notSent.reason());
            case Publication.Unconfirmed unconfirmed ->
                unknown(naming.paymentId().toString(), unconfirmed.reason());
        };
    }

    /** A replay the broker could not take: an earlier request with the key may have published the payment. */
    private static Outcome.Unknown replayNotSent(String paymentId, String reason) {
        return new Outcome.Unknown(Refusal.of(
                RefusalReason.OUTCOME_UNKNOWN,
                "payment " + paymentId + " was claimed by an"
                        + " earlier request with this Idempotency-Key, which may have published it; the message broker could not"
                        + " take this retry (" + reason
                        + "). It may be accepted and settle: retry with the same Idempotency-Key"
                        + " and request to learn its outcome. Never retry it under a new key."));
    }

    /** 6. Later uses of a key within the batch take their first use's outcome, or are refused. */
    private static void followFirstUses(List<Order> orders, KeyUses uses, Outcome[] outcomes) {
        for (int i : uses.laterUses()) {
            int first = uses.firstUse().get(orders.get(i).scopedKey());
            if (!Arrays.equals(uses.fingerprints()[first], uses.fingerprints()[i])) {
                outcomes[i] = new Outcome.Rejected(Refusal.of(
                        RefusalReason.IDEMPOTENCY_KEY_REUSED,
                        "this idempotencyKey is used by item " + first
                                + " of the same batch with a different request"));
            } else if (outcomes[first] instanceof Outcome.Accepted accepted) {
                outcomes[i] =
                        new Outcome.Accepted(accepted.paymentId(), accepted.acceptedAt(), true, accepted.endToEndId());
            } else {
                outcomes[i] = outcomes[first];
            }
        }
    }

    /** The outcome of a payment the broker did not confirm; {@code paymentId} null when not yet assigned. */
    public static Outcome.Unknown unknown(String paymentId, String reason) {
        return new Outcome.Unknown(Refusal.of(
                RefusalReason.OUTCOME_UNKNOWN,
                (paymentId == null ? "the payment" : "payment " + paymentId)
                        + " was sent to the message broker but not confirmed (" + reason + "): it may"
                        + " be accepted. Retry with the same Idempotency-Key and request to learn its outcome; they name the"
                        + " same payment and accept it at most once. Never retry it under a new key."));
    }
}
