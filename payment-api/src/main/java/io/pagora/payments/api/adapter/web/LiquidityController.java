package io.pagora.payments.api.adapter.web;

import io.pagora.payments.api.application.administration.ParticipantAdministration;
import io.pagora.payments.api.application.liquidity.SettingWatermarks;
import io.pagora.payments.api.application.liquidity.SettingWatermarks.Standing;
import io.pagora.payments.api.application.liquidity.WatchedReserve;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A bank's liquidity watermarks (docs/operations.md, Liquidity alerts): the bank's own and the operator's; anyone
 * else is answered as for an unregistered bank.
 */
@RestController
public class LiquidityController {

    /** The watch as answered: watermarks and state are null for a bank without watermarks. */
    public record LiquidityResponse(
            int ispb,
            long availableCentavos,
            Long lowWatermarkCentavos,
            Long highWatermarkCentavos,
            String state,
            Instant since,
            long crossings) {}

    private final SettingWatermarks watermarks;
    private final int bodyMaxBytes;

    public LiquidityController(SettingWatermarks watermarks, int bodyMaxBytes) {
        this.watermarks = watermarks;
        this.bodyMaxBytes = bodyMaxBytes;
    }

    /** Sets both watermarks at once; the watch's state is kept, so changing them raises no alert by itself. */
    @PutMapping("/banks/{ispb}/liquidity-watermarks")
    public ResponseEntity<Object> set(@PathVariable("ispb") String ispb, Caller caller, HttpServletRequest http) {
        BankId bank = AdministrationController.parseIspb(ispb);
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        long low = fields.requiredLong("lowWatermarkCentavos", 1, Watermarks.CENTAVOS_MAX - 1);
        long high = fields.requiredLong("highWatermarkCentavos", 2, Watermarks.CENTAVOS_MAX);
        if (high <= low) {
            throw fields.invalid(
                    RefusalReason.WATERMARKS_INVERTED,
                    "highWatermarkCentavos",
                    "must be above lowWatermarkCentavos (" + low + "), got " + high);
        }
        return answer(watermarks.set(caller, bank, new Watermarks(low, high)), bank, http);
    }

    @GetMapping("/banks/{ispb}/liquidity-watermarks")
    public ResponseEntity<Object> get(@PathVariable("ispb") String ispb, Caller caller, HttpServletRequest http) {
        BankId bank = AdministrationController.parseIspb(ispb);
        return answer(watermarks.get(caller, bank), bank, http);
    }

    private static ResponseEntity<Object> answer(Optional<Standing> standing, BankId bank, HttpServletRequest http) {
        if (standing.isEmpty()) {
            return Problems.response(ParticipantAdministration.bankNotFound(bank), http.getRequestURI());
        }
        WatchedReserve watched = standing.get().watched();
        long available = standing.get().availableCentavos();
        if (watched == null) {
            return ResponseEntity.ok(new LiquidityResponse(bank.ispb(), available, null, null, null, null, 0));
        }
        return ResponseEntity.ok(new LiquidityResponse(
                bank.ispb(),
                available,
                watched.marks().lowCentavos(),
                watched.marks().highCentavos(),
                watched.watch().state().name(),
                watched.watch().since(),
                watched.sequence()));
    }
}
