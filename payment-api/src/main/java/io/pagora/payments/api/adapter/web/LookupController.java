package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Answer;
import io.pagora.payments.api.application.directory.lookup.LookupCommit;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.HolderName;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TaxId;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Key look-ups by a payer's bank for its end users (docs/directory.md#look-ups): one at a time or many in a call, each
 * charged to its end user's bucket and the bank's, and the bank's view of those buckets. The operator holds no end
 * user and is refused (403). Keys themselves, and BR Codes, are {@link DirectoryController}'s.
 */
@RestController
public class LookupController {

    /** The end user a look-up is made for: a CPF or CNPJ, as DICT's header. */
    static final String PAYER_ID = "PI-PayerId";

    private static final int BODY_MAX_BYTES = 4_096;

    /** Look-ups in one {@code POST /directory/lookups/batch}, as many as payments in one batch. */
    static final int LOOKUP_BATCH_ITEMS_MAX = 1_000;

    /** A batch of the most look-ups, each with the longest key (77 characters of an e-mail) and a CNPJ, fits. */
    private static final int BATCH_BODY_MAX_BYTES = 160_000;

    /** A look-up's answer: whom the key pays, masked, and the end-to-end id its payment must carry. */
    public record LookupBody(
            String key,
            String keyType,
            String accountId,
            String ispb,
            String holderName,
            String holderTaxId,
            Instant keyCreatedAt,
            String endToEndId,
            Instant lookedUpAt) {}

    public record PolicyBody(
            String bucket,
            String payerId,
            double tokens,
            long burst,
            double refillPerMinute,
            int hitCost,
            int missCost) {}

    public record PoliciesBody(List<PolicyBody> policies) {}

    private final LookupCommit lookups;
    private final LookingUpKeys lookingUp;
    private final MeterRegistry meters;
    private final java.util.Set<BankId> gauged = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public LookupController(LookupCommit lookups, LookingUpKeys lookingUp, MeterRegistry meters) {
        this.lookups = lookups;
        this.lookingUp = lookingUp;
        this.meters = meters;
    }

    /** A look-up's answer, counted per bank; the bank's bucket level a gauge from its first look-up on. */
    private void count(BankId bank, String result) {
        count(bank, result, 1);
    }

    /** {@code looked} look-ups of one result: a batch counts each result once, not each look-up. */
    private void count(BankId bank, String result, long looked) {
        meters.counter("pagora.directory.lookups", "bank", bank.toString(), "result", result)
                .increment(looked);
        if (gauged.add(bank)) {
            String participant = Caller.BANK_PREFIX + bank;
            io.micrometer.core.instrument.Gauge.builder(
                            "pagora.directory.bucket.tokens", lookingUp, keys -> keys.lastLevel(participant))
                    .description("tokens in the bank's own look-up bucket after this instance's last look-up batch")
                    .tag("bank", bank.toString())
                    .register(meters);
        }
    }

    /** A look-up, for the end user {@code PI-PayerId}: POST, as it reserves an end-to-end id and spends tokens. */
    @PostMapping("/directory/lookups")
    public ResponseEntity<Object> lookUp(Caller caller, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank(BankId bank))) {
            return DirectoryController.banksOnly(http);
        }
        String payerId = payerId(http.getHeader(PAYER_ID), true);
        JsonFields fields = new JsonFields(JsonBodies.read(http, BODY_MAX_BYTES));
        PixKey key = DirectoryController.anyKey(fields.requiredString("key"));
        return switch (lookups.lookUp(new LookingUpKeys.Ask(bank, payerId, key))) {
            case Answer.Found found -> {
                count(bank, "found");
                yield ResponseEntity.ok(lookupBody(found));
            }
            case Answer.Missing missing -> {
                count(bank, "missing");
                yield Problems.response(
                        Refusal.of(RefusalReason.KEY_NOT_FOUND, "no key " + key.value() + " is registered"),
                        http.getRequestURI());
            }
            case Answer.Limited limited -> {
                count(bank, limited.problem().type().slug);
                yield Problems.response(limited.problem(), http.getRequestURI());
            }
        };
    }

    /**
     * Look-ups for many of the bank's end users in one call, as a bank's directory proxy gathers them: one store
     * transaction, each look-up charged to its own end user's bucket and the bank's exactly as one alone. A look-up
     * refused (not found, rate-limited, a key or tax id that is none) is an item {@code REFUSED} with its problem;
     * only what is wrong with the whole call fails the call.
     */
    @PostMapping("/directory/lookups/batch")
    public ResponseEntity<Object> lookUpBatch(Caller caller, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank(BankId bank))) {
            return DirectoryController.banksOnly(http);
        }
        JsonFields fields = new JsonFields(JsonBodies.read(http, BATCH_BODY_MAX_BYTES));
        tools.jackson.databind.JsonNode items = fields.node("lookups");
        if (items == null) {
            throw fields.missing("lookups");
        }
        if (!items.isArray()) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD, "lookups", "must be an array, got " + JsonFields.typeOf(items));
        }
        if (items.isEmpty() || items.size() > LOOKUP_BATCH_ITEMS_MAX) {
            throw new io.pagora.service.web.ProblemException(
                    HttpProblems.INVALID_BATCH_SIZE,
                    "lookups",
                    "lookups must hold 1 to " + LOOKUP_BATCH_ITEMS_MAX + " items, got " + items.size());
        }
        Object[] results = new Object[items.size()];
        List<LookingUpKeys.Ask> asks = new java.util.ArrayList<>(items.size());
        List<Integer> asked = new java.util.ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String field = "lookups[" + i + "]";
            tools.jackson.databind.JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw fields.invalid(
                        RefusalReason.INVALID_FIELD, field, "must be a JSON object, got " + JsonFields.typeOf(item));
            }
            String payerId = payerIdShaped(itemText(item, field, "payerId"), field + ".payerId");
            String rawKey = itemText(item, field, "key");
            if (rawKey == null) {
                throw new RefusalException(
                        Refusal.ofField(RefusalReason.MISSING_FIELD, field + ".key", field + ".key is required"));
            }
            if (!TaxId.isTaxId(payerId)) {
                results[i] = refused(
                        i,
                        Refusal.ofField(
                                RefusalReason.INVALID_TAX_ID,
                                field + ".payerId",
                                "payerId has wrong check digits: it is no CPF or CNPJ"));
                continue;
            }
            java.util.Optional<PixKey> key = PixKey.of(rawKey);
            if (key.isEmpty()) {
                results[i] = refused(
                        i,
                        Refusal.ofField(
                                RefusalReason.INVALID_KEY,
                                field + ".key",
                                "\"" + JsonFields.abbreviate(rawKey) + "\" is no PIX key: a CPF (11 digits), a CNPJ"
                                        + " (14 characters), a phone (+ and 2 to 15 digits), an e-mail, or an EVP (a"
                                        + " UUID)"));
                continue;
            }
            asks.add(new LookingUpKeys.Ask(bank, payerId, key.get()));
            asked.add(i);
        }
        if (!asks.isEmpty()) {
            java.util.Optional<List<Answer>> answers = lookups.lookUpBatch(asks);
            if (answers.isEmpty()) {
                return Problems.response(LookupCommit.batchesBusy(), http.getRequestURI());
            }
            java.util.Map<String, Long> tally = new java.util.HashMap<>();
            for (int n = 0; n < asks.size(); n++) {
                int i = asked.get(n);
                results[i] = switch (answers.get().get(n)) {
                    case Answer.Found found -> {
                        tally.merge("found", 1L, Long::sum);
                        yield new FoundItem(i, "FOUND", lookupBody(found));
                    }
                    case Answer.Missing missing -> {
                        tally.merge("missing", 1L, Long::sum);
                        yield refused(
                                i,
                                Refusal.of(
                                        RefusalReason.KEY_NOT_FOUND,
                                        "no key " + missing.key().value() + " is registered"));
                    }
                    case Answer.Limited limited -> {
                        tally.merge(limited.problem().type().slug, 1L, Long::sum);
                        yield refused(i, limited.problem());
                    }
                };
            }
            tally.forEach((result, looked) -> count(bank, result, looked));
        }
        int found = 0;
        for (Object result : results) {
            if (result instanceof FoundItem) {
                found++;
            }
        }
        return ResponseEntity.ok(new LookupBatchBody(found, results.length - found, List.of(results)));
    }

    private static String itemText(tools.jackson.databind.JsonNode item, String field, String name) {
        tools.jackson.databind.JsonNode node = item.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    field + "." + name,
                    field + "." + name + " must be a string, got " + JsonFields.typeOf(node)));
        }
        return node.stringValue();
    }

    /** A batch's answer: one result per look-up, in order. */
    public record LookupBatchBody(int foundCount, int refusedCount, List<Object> results) {}

    /** A batch's look-up that found its key. */
    public record FoundItem(int index, String status, LookupBody lookup) {}

    /** A batch's look-up refused: its problem as the single look-up would answer it, and when to retry if it says. */
    private static java.util.Map<String, Object> refused(int index, Refusal problem) {
        java.util.Map<String, Object> item = new java.util.LinkedHashMap<>();
        item.put("index", index);
        item.put("status", "REFUSED");
        java.util.Map<String, Object> embedded = Problems.embedded(problem);
        if (problem.retryAfterSeconds() > 0) {
            embedded.put("retryAfterSeconds", problem.retryAfterSeconds());
        }
        item.put("problem", embedded);
        return item;
    }

    private static LookupBody lookupBody(Answer.Found found) {
        return new LookupBody(
                found.entry().key().value(),
                found.entry().key().type().name(),
                found.entry().account().toString(),
                found.entry().bank().toString(),
                HolderName.masked(found.entry().holderName(), found.entry().holderTaxId()),
                TaxId.masked(found.entry().holderTaxId()),
                found.entry().createdAt(),
                found.endToEndId().value(),
                found.at());
    }

    /** The caller's look-up buckets: its own, and its end user's if {@code payerId} is given. */
    @GetMapping("/directory/policies")
    public ResponseEntity<Object> policies(
            Caller caller, @RequestParam(name = "payerId", required = false) String payerId, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank(BankId bank))) {
            return DirectoryController.banksOnly(http);
        }
        String user = payerId == null ? null : payerId(payerId, false);
        var policy = lookingUp.policy();
        return ResponseEntity.ok(new PoliciesBody(lookingUp.levels(bank, user).stream()
                .map(level -> level.bucket().participants()
                        ? new PolicyBody(
                                "participant",
                                null,
                                level.tokens(),
                                level.limits().burst(),
                                level.limits().refillPerMinute(),
                                policy.participantHitCost(),
                                policy.participantMissCost())
                        : new PolicyBody(
                                "end-user",
                                level.bucket().payerId(),
                                level.tokens(),
                                level.limits().burst(),
                                level.limits().refillPerMinute(),
                                policy.userHitCost(),
                                policy.userMissCost()))
                .toList()));
    }

    private static final java.util.regex.Pattern TAX_ID_SHAPE =
            java.util.regex.Pattern.compile("[0-9]{11}|[0-9A-Z]{12}[0-9]{2}");

    /** A batch item's end user: its shape (the schema's pattern) here, its check digits per item. */
    private static String payerIdShaped(String text, String field) {
        if (text == null) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.MISSING_FIELD,
                    field,
                    field + " is required: the CPF or CNPJ of the end user the look-up is made for"));
        }
        if (!TAX_ID_SHAPE.matcher(text).matches()) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    field,
                    field + " is the end user's CPF (11 digits) or CNPJ (12 digits or upper-case letters, 2 digits)"));
        }
        return text;
    }

    private static String payerId(String text, boolean header) {
        String field = header ? PAYER_ID : "payerId";
        payerIdShaped(text, field);
        if (!TaxId.isTaxId(text)) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_TAX_ID, field, field + " has wrong check digits: it is no CPF or CNPJ"));
        }
        return text;
    }
}
