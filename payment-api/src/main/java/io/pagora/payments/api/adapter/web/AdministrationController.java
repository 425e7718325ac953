package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.payments.api.application.administration.ParticipantAdministration;
import io.pagora.payments.api.application.administration.ParticipantAdministration.AccountOpening;
import io.pagora.payments.api.application.administration.ParticipantAdministration.BankRegistration;
import io.pagora.payments.api.application.administration.ParticipantAdministration.Funding;
import io.pagora.payments.api.application.liquidity.WatchingReserves;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.web.EdgeProblems;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Participant administration, needed to use the platform: banks, customer accounts, funding and
 * balances, all on the ledger. Every write is idempotent: 201 when it took effect now, 200 (with
 * {@code Idempotent-Replayed: true} for fundings) when an identical earlier request already did.
 *
 * <p>Every method passes its {@link Caller} to {@link ParticipantAdministration}, which decides what the caller
 * may do; this adapter only renders the answer: a function refused to a bank (registering banks, funding
 * reserves) is 403 {@code forbidden}; an object refused reads as a missing one, rendered like one.
 */
@RestController
public class AdministrationController {

    static final int BANK_NAME_CHARS_MAX = 140;

    public record BankResponse(int ispb, String name, String reserveAccountId, String transitAccountId) {}

    public record AccountResponse(String accountId, int ispb, long accountNumber) {}

    public record ReserveFundingResponse(String transferId, int ispb, String reserveAccountId, long amountCentavos) {}

    public record CustomerFundingResponse(String transferId, String accountId, long amountCentavos) {}

    public record BalanceResponse(
            String accountId,
            String kind,
            long postedCreditsCentavos,
            long postedDebitsCentavos,
            long pendingDebitsCentavos,
            long pendingCreditsCentavos,
            long balanceCentavos,
            long availableCentavos) {}

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AdministrationController.class);

    private final ParticipantAdministration administration;
    private final WatchingReserves reserves;
    private final int bodyMaxBytes;

    public AdministrationController(
            ParticipantAdministration administration, WatchingReserves reserves, int bodyMaxBytes) {
        this.administration = administration;
        this.reserves = reserves;
        this.bodyMaxBytes = bodyMaxBytes;
    }

    @PostMapping("/banks")
    public ResponseEntity<Object> registerBank(Caller caller, HttpServletRequest http) {
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        BankId bank = new BankId((int) fields.requiredLong("ispb", 0, BankId.ISPB_MAX));
        String name = fields.requiredString("name");
        if (name.isBlank() || !JsonFields.isPlainText(name, BANK_NAME_CHARS_MAX)) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    "name",
                    "must be 1 to " + BANK_NAME_CHARS_MAX + " characters, not blank, without control characters");
        }
        return switch (administration.registerBank(caller, bank, name)) {
            case BankRegistration.Registered registered ->
                ResponseEntity.status(registered.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .body(new BankResponse(
                                bank.ispb(),
                                registered.name(),
                                registered.reserve().toString(),
                                registered.transit().toString()));
            case BankRegistration.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
            case BankRegistration.Forbidden forbidden -> operatorOnly(http);
        };
    }

    /** The operator's, and the bank's own: anyone else is answered as for an unregistered bank. */
    @GetMapping("/banks/{ispb}")
    public ResponseEntity<Object> bank(@PathVariable("ispb") String ispb, Caller caller, HttpServletRequest http) {
        BankId bank = parseIspb(ispb);
        return administration
                .bank(caller, bank)
                .<ResponseEntity<Object>>map(found -> ResponseEntity.ok(new BankResponse(
                        bank.ispb(),
                        found.name(),
                        found.reserve().toString(),
                        found.transit().toString())))
                .orElseGet(() -> Problems.response(ParticipantAdministration.bankNotFound(bank), http.getRequestURI()));
    }

    /**
     * Idempotent by number; without one, by the optional {@code Idempotency-Key} (then answered with
     * {@code Idempotent-Replayed}): without either, a retried request opens a second account.
     */
    @PostMapping("/accounts")
    public ResponseEntity<Object> openAccount(Caller caller, HttpServletRequest http) {
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        BankId bank = new BankId((int) fields.requiredLong("ispb", 0, BankId.ISPB_MAX));
        Long accountNumber = fields.optionalLong("accountNumber", 1, Long.MAX_VALUE);
        IdempotencyKey key = http.getHeader(PaymentController.IDEMPOTENCY_KEY) == null ? null : idempotencyKey(http);
        return switch (administration.openAccount(caller, bank, accountNumber, key)) {
            case AccountOpening.Opened opened -> {
                ResponseEntity.BodyBuilder answer =
                        ResponseEntity.status(opened.created() ? HttpStatus.CREATED : HttpStatus.OK);
                if (opened.replayed() != null) {
                    answer.header(
                            PaymentController.IDEMPOTENT_REPLAYED,
                            opened.replayed().toString());
                }
                yield answer.body(
                        new AccountResponse(opened.account().toString(), bank.ispb(), opened.accountNumber()));
            }
            case AccountOpening.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    @PostMapping("/banks/{ispb}/reserve-fundings")
    public ResponseEntity<Object> fundReserve(
            @PathVariable("ispb") String ispb, Caller caller, HttpServletRequest http) {
        BankId bank = parseIspb(ispb);
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        IdempotencyKey key = idempotencyKey(http);
        long amount = fields.amountCentavos("amountCentavos");
        return switch (administration.fundReserve(caller, bank, amount, key)) {
            case Funding.Funded funded -> {
                clearsAlert(bank);
                yield funded(
                        funded,
                        new ReserveFundingResponse(
                                funded.transferId().toString(),
                                bank.ispb(),
                                funded.credited().toString(),
                                funded.amountCentavos()));
            }
            case Funding.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
            case Funding.Forbidden forbidden -> operatorOnly(http);
        };
    }

    /**
     * A funding clears the bank's liquidity alert once its reserve is back at the low watermark. The funding stands
     * whatever this answers: a failed check is logged, and the alert then clears above the high watermark.
     */
    private void clearsAlert(BankId bank) {
        try {
            reserves.funded(bank);
        } catch (RuntimeException e) {
            log.warn("liquidity: could not check {}'s alert after its funding: {}", bank, e.toString());
        }
    }

    @PostMapping("/accounts/{accountId}/fundings")
    public ResponseEntity<Object> fundCustomer(
            @PathVariable("accountId") String accountId, Caller caller, HttpServletRequest http) {
        Id128 account = JsonFields.parseAccountId(accountId, "accountId");
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        IdempotencyKey key = idempotencyKey(http);
        long amount = fields.amountCentavos("amountCentavos");
        return switch (administration.fundCustomer(caller, account, amount, key)) {
            case Funding.Funded funded ->
                funded(
                        funded,
                        new CustomerFundingResponse(
                                funded.transferId().toString(), account.toString(), funded.amountCentavos()));
            case Funding.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
            case Funding.Forbidden forbidden -> operatorOnly(http);
        };
    }

    /** Balances as the ledger (the authority) holds them now. */
    @GetMapping("/accounts/{accountId}/balance")
    public ResponseEntity<Object> balance(
            @PathVariable("accountId") String accountId, Caller caller, HttpServletRequest http) {
        Id128 id = JsonFields.parseAccountId(accountId, "accountId");
        Optional<Account> found = administration.account(caller, id);
        if (found.isEmpty()) {
            return Problems.response(ParticipantAdministration.accountNotFound(id), http.getRequestURI());
        }
        Account account = found.get();
        String kind =
                ParticipantAdministration.kindOf(account).map(AccountKind::name).orElse("UNKNOWN");
        return ResponseEntity.ok(new BalanceResponse(
                id.toString(),
                kind,
                account.creditsPosted(),
                account.debitsPosted(),
                account.debitsPending(),
                account.creditsPending(),
                account.creditsPosted() - account.debitsPosted(),
                account.creditsPosted() - account.debitsPosted() - account.debitsPending()));
    }

    /** The answer every operator-only function gives any other caller, as the actuator's does. */
    private static ResponseEntity<Object> operatorOnly(HttpServletRequest http) {
        return Problems.response(
                EdgeProblems.FORBIDDEN, null, "only the switch operator may use this endpoint", http.getRequestURI());
    }

    private static ResponseEntity<Object> funded(Funding.Funded funded, Object body) {
        return ResponseEntity.status(funded.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .header(PaymentController.IDEMPOTENT_REPLAYED, Boolean.toString(!funded.created()))
                .body(body);
    }

    private static IdempotencyKey idempotencyKey(HttpServletRequest http) {
        IdempotencyKey.Result key = IdempotencyKey.parse(
                http.getHeader(PaymentController.IDEMPOTENCY_KEY), PaymentController.IDEMPOTENCY_KEY);
        if (key.problem() != null) {
            throw new RefusalException(key.problem());
        }
        return key.key();
    }

    static BankId parseIspb(String text) {
        if (!text.matches("[0-9]{1,8}")) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "ispb",
                    "ispb must be 1 to 8 decimal digits, got \"" + JsonFields.abbreviate(text) + "\""));
        }
        return new BankId(Integer.parseInt(text));
    }
}
