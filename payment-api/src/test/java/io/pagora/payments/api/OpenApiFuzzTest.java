package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.fuzz.OpenApiDocument;
import io.pagora.testing.fuzz.OpenApiFuzz;
import io.pagora.testing.fuzz.OpenApiFuzz.Probe;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * Proves payment-api never answers a malformed request with a 500, an undocumented status, an error
 * that is not RFC 9457 problem+json, or a stack trace: a schema-driven fuzz run of its own OpenAPI
 * document (as served at {@code /openapi.yaml}) over every operation — broken headers, query strings,
 * path parameters, bodies and methods — plus unknown paths and the actuator endpoints, on real Kafka
 * and PostgreSQL, as an authenticated bank (bank 1, over mutual TLS: the operator-only operations answer it 403;
 * the actuator is probed as the operator), with a printed seed ({@code -Dpagora.fuzz.seed=…} replays a run) and bounded in
 * requests and time. Whatever money the accepted requests moved (fundings), the ledger's invariants hold
 * afterwards over every account it holds.
 */
class OpenApiFuzzTest extends PaymentApiIntegrationTest {

    /** The largest body payment-api accepts (batch-body-max, 2 MB). */
    static final int BODY_BYTES_MAX = 2 * 1024 * 1024;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    @SuppressWarnings("unchecked")
    void everyMalformedRequestGetsADocumentedProblemNeverA500() {
        Participants participants = new Participants(port);
        Http http = participants.bank(1);
        participants.registerBank(1, "Banco Um");
        participants.fundReserve(1, 1_000_000_00);
        String account = participants.openAccount(1);
        String payee = participants.openAccount(1);
        participants.fundCustomer(account, 10_000_00);
        Instant now = Instant.now();
        Http.Response served = http.get("/openapi.yaml");
        assertThat(served.status()).isEqualTo(200);
        JsonNode document = Http.JSON.valueToTree(new Yaml().<Map<String, Object>>load(served.body()));

        OpenApiFuzz.Report report = OpenApiFuzz.run(
                        new OpenApiDocument(document),
                        OpenApiFuzz.Config.standard(
                                        port,
                                        BODY_BYTES_MAX,
                                        List.of(),
                                        Map.of(
                                                "accountId",
                                                account,
                                                "ispb",
                                                "1",
                                                "payerAccountId",
                                                account,
                                                "payeeAccountId",
                                                payee,
                                                // An end user's CPF: its check digits are more than a pattern says.
                                                "PI-PayerId",
                                                "52998224725",
                                                "holderTaxId",
                                                "52998224725",
                                                // Recent and the caller's, which no schema can say: the schema's own
                                                // would be refused 400.
                                                "endToEndId",
                                                PixId.of(PixId.Kind.END_TO_END, new BankId(1), now, "fuzzEndToEn")
                                                        .value(),
                                                "returnId",
                                                PixId.of(PixId.Kind.RETURN, new BankId(1), now, "fuzzReturnI")
                                                        .value()))
                                .notBoundable(Set.of("endToEndId", "returnId"))
                                .over(TestCertificates.shared().bank(1).sslContext()))
                .published("payment-api");
        // The actuator (all but health: the operator's) is probed as the operator, with no operation to fuzz.
        OpenApiFuzz.Report actuator = OpenApiFuzz.run(
                        new OpenApiDocument(Http.JSON.createObjectNode()),
                        OpenApiFuzz.Config.standard(port, BODY_BYTES_MAX, Probe.actuator(), Map.of())
                                .over(TestCertificates.shared().operator().sslContext()))
                .published("payment-api-actuator");

        assertThat(report.findings()).as(report.summary()).isEmpty();
        assertThat(report.requests())
                .as("the run was not cut short before it began")
                .isGreaterThan(1_000);
        assertThat(report.systematicComplete())
                .as("every class of input was sent (on a busy machine: -Dpagora.fuzz.seconds=…): " + report.summary())
                .isTrue();
        assertThat(actuator.findings()).as(actuator.summary()).isEmpty();
        List<Id128> every = jdbc.queryForList("SELECT id FROM ledger.accounts", UUID.class).stream()
                .map(Id128::fromUuid)
                .toList();
        MoneyInvariants.check(ledger, every);
    }
}
