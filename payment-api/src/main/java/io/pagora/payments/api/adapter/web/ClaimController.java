package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.claims.ClaimingKeys;
import io.pagora.payments.api.application.directory.claims.ClaimingKeys.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.service.web.EdgeProblems;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Claims on keys between banks (docs/directory.md#claims): opened by the bank that wants the key, confirmed or
 * cancelled by the bank that holds it, cancelled by either. A claim is its two banks' only: to any other it reads as
 * one that does not exist. The operator holds no key (403).
 */
@RestController
public class ClaimController {

    private static final int BODY_MAX_BYTES = 4_096;
    private static final Pattern CLAIM_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /**
     * A claim as one of its banks reads it: its own side's account only ({@code accountId}), the holder's name to the
     * claimer only (its customer).
     */
    public record ClaimBody(
            String claimId,
            String type,
            String key,
            String keyType,
            String role,
            String status,
            String resolution,
            String claimerIspb,
            String donorIspb,
            String accountId,
            String holderName,
            Instant openedAt,
            Instant resolveBy,
            Instant resolvedAt) {
        static ClaimBody of(Claim claim, Caller caller) {
            boolean claimer = caller.principalName().equals(claim.claimer());
            return new ClaimBody(
                    claim.id().toString(),
                    claim.type().name(),
                    claim.key().value(),
                    claim.key().type().name(),
                    claimer ? "CLAIMER" : "DONOR",
                    claim.status().name(),
                    claim.resolution() == null ? null : claim.resolution().name(),
                    claim.claimer().substring(Caller.BANK_PREFIX.length()),
                    claim.donor().substring(Caller.BANK_PREFIX.length()),
                    (claimer ? claim.claimerAccount() : claim.donorAccount()).toString(),
                    claimer ? claim.holderName() : null,
                    claim.openedAt(),
                    claim.resolveBy(),
                    claim.resolvedAt());
        }
    }

    public record ClaimsBody(List<ClaimBody> claims) {}

    private final ClaimingKeys claims;

    public ClaimController(ClaimingKeys claims) {
        this.claims = claims;
    }

    @PostMapping("/directory/claims")
    public ResponseEntity<Object> open(Caller caller, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        JsonFields fields = new JsonFields(JsonBodies.read(http, BODY_MAX_BYTES));
        String typeName = fields.requiredString("type");
        Claim.Type type = switch (typeName) {
            case "OWNERSHIP" -> Claim.Type.OWNERSHIP;
            case "PORTABILITY" -> Claim.Type.PORTABILITY;
            default ->
                throw fields.invalid(
                        RefusalReason.INVALID_FIELD,
                        "type",
                        "is OWNERSHIP or PORTABILITY, got \"" + JsonFields.abbreviate(typeName) + "\"");
        };
        PixKey key = DirectoryController.anyKey(fields.requiredString("key"));
        Id128 account = fields.accountId("accountId");
        String holderName = fields.requiredString("holderName");
        String holderTaxId = fields.requiredString("holderTaxId");
        IdempotencyKey.Result requestKey = IdempotencyKey.parse(
                http.getHeader(PaymentController.IDEMPOTENCY_KEY), PaymentController.IDEMPOTENCY_KEY);
        if (requestKey.problem() != null) {
            throw new RefusalException(requestKey.problem());
        }
        return answer(
                claims.open(caller, requestKey.key().value(), type, key, account, holderName, holderTaxId),
                caller,
                http,
                true);
    }

    @GetMapping("/directory/claims/{claimId}")
    public ResponseEntity<Object> read(
            Caller caller, @PathVariable("claimId") String claimId, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        UUID id = claimId(claimId);
        return claims.read(caller, id)
                .<ResponseEntity<Object>>map(claim -> ResponseEntity.ok(ClaimBody.of(claim, caller)))
                .orElseGet(() -> Problems.response(
                        Refusal.of(RefusalReason.CLAIM_NOT_FOUND, "no claim " + id + " involves your bank"),
                        http.getRequestURI()));
    }

    @GetMapping("/directory/claims")
    public ResponseEntity<Object> list(
            Caller caller,
            @RequestParam(name = "role", defaultValue = "donor") String role,
            @RequestParam(name = "status", defaultValue = "OPEN") String status,
            HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        if (!role.equals("donor") && !role.equals("claimer")) {
            throw new RefusalException(
                    Refusal.ofField(RefusalReason.INVALID_FIELD, "role", "role is donor or claimer"));
        }
        Claim.Status wanted;
        try {
            wanted = Claim.Status.valueOf(status.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new RefusalException(
                    Refusal.ofField(RefusalReason.INVALID_FIELD, "status", "status is OPEN, COMPLETED or CANCELLED"));
        }
        return ResponseEntity.ok(new ClaimsBody(claims.list(caller, role.equals("donor"), wanted).stream()
                .map(claim -> ClaimBody.of(claim, caller))
                .toList()));
    }

    @PostMapping("/directory/claims/{claimId}/confirm")
    public ResponseEntity<Object> confirm(
            Caller caller, @PathVariable("claimId") String claimId, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        return answer(claims.confirm(caller, claimId(claimId)), caller, http, false);
    }

    @PostMapping("/directory/claims/{claimId}/cancel")
    public ResponseEntity<Object> cancel(
            Caller caller, @PathVariable("claimId") String claimId, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        return answer(claims.cancel(caller, claimId(claimId)), caller, http, false);
    }

    private static ResponseEntity<Object> answer(
            Outcome outcome, Caller caller, HttpServletRequest http, boolean opening) {
        return switch (outcome) {
            case Outcome.Done done ->
                ResponseEntity.status(opening && done.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .header(PaymentController.IDEMPOTENT_REPLAYED, Boolean.toString(opening && !done.created()))
                        .body(ClaimBody.of(done.claim(), caller));
            case Outcome.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    private static UUID claimId(String text) {
        if (!CLAIM_ID.matcher(text).matches()) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD, "claimId", "claimId is a UUID in lower case, as a claim answered it"));
        }
        return UUID.fromString(text);
    }

    private static ResponseEntity<Object> banksOnly(HttpServletRequest http) {
        return Problems.response(
                EdgeProblems.FORBIDDEN, null, "only a participant bank may use the directory", http.getRequestURI());
    }
}
