package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.NewKey;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.BrCode;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.service.web.EdgeProblems;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The key directory for participant banks (docs/directory.md): their customers' keys and static BR Codes for them;
 * look-ups are {@link LookupController}'s, claims {@link ClaimController}'s. The operator holds no customer and is
 * refused (403), as on every bank-only call.
 */
@RestController
public class DirectoryController {

    private static final int BODY_MAX_BYTES = 4_096;

    /** A key as its own bank reads it. */
    public record KeyBody(
            String key, String keyType, String accountId, String holderName, String holderTaxId, Instant createdAt) {
        static KeyBody of(KeyEntry entry) {
            return new KeyBody(
                    entry.key().value(),
                    entry.key().type().name(),
                    entry.account().toString(),
                    entry.holderName(),
                    entry.holderTaxId(),
                    entry.createdAt());
        }
    }

    public record KeysBody(List<KeyBody> keys) {}

    public record BrCodeBody(String brCode, String key, Long amountCentavos, String txid) {}

    private final RegisteringKeys registering;

    public DirectoryController(RegisteringKeys registering) {
        this.registering = registering;
    }

    @PostMapping("/directory/keys")
    public ResponseEntity<Object> register(Caller caller, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        JsonFields fields = new JsonFields(JsonBodies.read(http, BODY_MAX_BYTES));
        String typeName = fields.requiredString("keyType");
        KeyType type = KeyType.named(typeName)
                .orElseThrow(() -> fields.invalid(
                        RefusalReason.INVALID_FIELD,
                        "keyType",
                        "must be one of CPF, CNPJ, PHONE, EMAIL, EVP, got \"" + JsonFields.abbreviate(typeName)
                                + "\""));
        Id128 account = fields.accountId("accountId");
        String holderName = fields.requiredString("holderName");
        String holderTaxId = fields.requiredString("holderTaxId");
        // Every registration carries one, as every other write does; an EVP's names the key made the first time.
        IdempotencyKey.Result requestKey = IdempotencyKey.parse(
                http.getHeader(PaymentController.IDEMPOTENCY_KEY), PaymentController.IDEMPOTENCY_KEY);
        if (requestKey.problem() != null) {
            throw new RefusalException(requestKey.problem());
        }
        Outcome outcome;
        if (type == KeyType.EVP) {
            if (fields.optionalString("key") != null) {
                throw fields.invalid(RefusalReason.INVALID_KEY, "key", "is made by the directory for an EVP: omit it");
            }
            outcome = registering.registerRandom(caller, requestKey.key().value(), account, holderName, holderTaxId);
        } else {
            outcome = registering.register(
                    caller,
                    new NewKey(key(fields.requiredString("key"), type, "key"), account, holderName, holderTaxId));
        }
        return switch (outcome) {
            case Outcome.Done done ->
                ResponseEntity.status(done.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .header(PaymentController.IDEMPOTENT_REPLAYED, Boolean.toString(!done.created()))
                        .body(KeyBody.of(done.entry()));
            case Outcome.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    @GetMapping("/directory/keys/{key}")
    public ResponseEntity<Object> read(Caller caller, @PathVariable("key") String key, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        PixKey pixKey = anyKey(key);
        return registering
                .own(caller, pixKey)
                .<ResponseEntity<Object>>map(entry -> ResponseEntity.ok(KeyBody.of(entry)))
                .orElseGet(() -> notFound(pixKey, http));
    }

    @GetMapping("/directory/keys")
    public ResponseEntity<Object> ofAccount(
            Caller caller, @RequestParam("accountId") String accountId, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        Id128 account = JsonFields.parseAccountId(accountId, "accountId");
        return ResponseEntity.ok(new KeysBody(
                registering.ofAccount(caller, account).stream().map(KeyBody::of).toList()));
    }

    @PutMapping("/directory/keys/{key}")
    public ResponseEntity<Object> update(Caller caller, @PathVariable("key") String key, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        PixKey pixKey = anyKey(key);
        JsonFields fields = new JsonFields(JsonBodies.read(http, BODY_MAX_BYTES));
        Id128 account = fields.accountId("accountId");
        String holderName = fields.requiredString("holderName");
        return switch (registering.update(caller, pixKey, account, holderName)) {
            case Outcome.Done done -> ResponseEntity.ok(KeyBody.of(done.entry()));
            case Outcome.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    @DeleteMapping("/directory/keys/{key}")
    public ResponseEntity<Object> delete(Caller caller, @PathVariable("key") String key, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        PixKey pixKey = anyKey(key);
        return registering.delete(caller, pixKey) ? ResponseEntity.noContent().build() : notFound(pixKey, http);
    }

    /**
     * A static BR Code for one of the caller's customers' keys: the text ("copia e cola"), or with {@code Accept:
     * image/png} the QR code itself.
     */
    @PostMapping(path = "/directory/qrcodes/static")
    public ResponseEntity<Object> staticQrCode(Caller caller, HttpServletRequest http) {
        if (!(caller instanceof Caller.Bank)) {
            return banksOnly(http);
        }
        JsonFields fields = new JsonFields(JsonBodies.read(http, BODY_MAX_BYTES));
        PixKey key = anyKey(fields.requiredString("key"));
        Long amount = fields.optionalLong("amountCentavos", 1, 99_999_999_999L);
        String name = BrCode.plain(fields.requiredString("merchantName"));
        String city = BrCode.plain(fields.requiredString("merchantCity"));
        String txid = fields.optionalString("txid");
        Refusal problem = BrCode.problem(key, amount, name, city, txid, null);
        if (problem != null) {
            return Problems.response(problem, http.getRequestURI());
        }
        if (registering.own(caller, key).isEmpty()) {
            return notFound(key, http);
        }
        BrCode code = new BrCode(key, amount, name, city, txid == null ? BrCode.NO_TXID : txid, null);
        String text = code.text();
        if (accepts(http, MediaType.IMAGE_PNG)) {
            return ResponseEntity.status(HttpStatus.CREATED)
                    .contentType(MediaType.IMAGE_PNG)
                    .body(QrImages.png(text));
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(new BrCodeBody(text, key.value(), amount, code.txid()));
    }

    private static boolean accepts(HttpServletRequest http, MediaType type) {
        String accept = http.getHeader("Accept");
        if (accept == null) {
            return false;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream().anyMatch(asked -> asked.equalsTypeAndSubtype(type));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A key given without its type (a path, a look-up): the type its format says. */
    static PixKey anyKey(String raw) {
        return PixKey.of(raw)
                .orElseThrow(() -> new RefusalException(Refusal.ofField(
                        RefusalReason.INVALID_KEY,
                        "key",
                        "\"" + JsonFields.abbreviate(raw)
                                + "\" is no PIX key: a CPF (11 digits), a CNPJ (14 characters), a"
                                + " phone (+ and 2 to 15 digits), an e-mail, or an EVP (a UUID)")));
    }

    static PixKey key(String raw, KeyType type, String field) {
        return PixKey.of(type, raw)
                .orElseThrow(() -> new RefusalException(Refusal.ofField(
                        RefusalReason.INVALID_KEY, field, field + " is no " + type + " key: " + type.format())));
    }

    private static ResponseEntity<Object> notFound(PixKey key, HttpServletRequest http) {
        return Problems.response(
                Refusal.of(
                        RefusalReason.KEY_NOT_FOUND,
                        "no key " + key.value() + " is registered to an account of your bank"),
                http.getRequestURI());
    }

    static ResponseEntity<Object> banksOnly(HttpServletRequest http) {
        return Problems.response(
                EdgeProblems.FORBIDDEN, null, "only a participant bank may use the directory", http.getRequestURI());
    }
}
