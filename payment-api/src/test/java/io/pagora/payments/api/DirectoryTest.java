package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.payments.api.testsupport.SecondInstance;
import io.pagora.payments.api.testsupport.SecondInstanceTest;
import io.pagora.testing.Http;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The key directory over HTTPS against payment-api on real PostgreSQL and Kafka: a bank registers its customers'
 * keys, another looks one up and pays it by key or by its BR Code; bad input is refused with its own problem and
 * changes nothing; a scanning end user is refused on every instance, and still after a restart.
 */
class DirectoryTest extends SecondInstanceTest {

    static final int PAYEE_BANK = 82;
    static final String MARIA = "52998224725";
    static final String JOAO = "12345678909";
    static final String SHOP = "11222333000181";

    Http payerBank;
    Http payeeBank;
    Participants participants;
    String mariasAccount;

    @Override
    protected int bankIspb() {
        return 81;
    }

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        participants.registerBank(PAYEE_BANK, "Banco Oitenta e Dois");
        payerBank = healthy;
        payeeBank = participants.bank(PAYEE_BANK);
        mariasAccount = participants.openAccount(PAYEE_BANK);
    }

    @Test
    void aBankRegistersAKeyAnotherLooksItUpAndPaysIt() {
        String key = "maria." + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        Http.Response registered = register(payeeBank, "EMAIL", key, mariasAccount, "Maria da Silva Souza", MARIA);
        Http.Response repeated = register(payeeBank, "EMAIL", key, mariasAccount, "Maria da Silva Souza", MARIA);

        assertThat(registered.status()).as("%s", registered).isEqualTo(201);
        assertThat(repeated.status()).isEqualTo(200);
        assertThat(repeated.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(payeeBank.get("/directory/keys/" + key).status()).isEqualTo(200);
        assertThat(payerBank.get("/directory/keys/" + key).problemType())
                .as("not its key")
                .isEqualTo("key-not-found");

        Http.Response lookUp = lookUp(payerBank, JOAO, key);
        assertThat(lookUp.status()).as("%s", lookUp).isEqualTo(200);
        JsonNode found = lookUp.json();
        assertThat(found.path("accountId").asString()).isEqualTo(mariasAccount);
        assertThat(found.path("ispb").asString()).isEqualTo("00000082");
        assertThat(found.path("holderName").asString()).isEqualTo("Maria S. S.");
        assertThat(found.path("holderTaxId").asString()).isEqualTo("***.982.247-**");
        String endToEndId = found.path("endToEndId").asString();
        assertThat(endToEndId).startsWith("E00000081");

        Map<TopicPartition, Long> mark = events.mark();
        Http.Response paid = payerBank.post(
                "/payments",
                Map.of("payerAccountId", payer, "payeeKey", key, "amountCentavos", 1_234, "endToEndId", endToEndId),
                "Idempotency-Key",
                "by-key-" + UUID.randomUUID());
        assertThat(paid.status()).as("%s", paid).isEqualTo(202);
        assertThat(paid.json().path("endToEndId").asString()).isEqualTo(endToEndId);
        List<Event> published = events.since(mark);
        assertThat(published).singleElement().satisfies(event -> {
            assertThat(event.payment().payeeAccountId()).isEqualTo(mariasAccount);
            assertThat(event.payment().endToEndId()).isEqualTo(endToEndId);
        });
    }

    @Test
    void aKeyMovedSinceItsLookUpIsRefusedWithItsOwnReason() {
        String other = participants.openAccount(PAYEE_BANK);
        String key = "+55619" + (10_000_000 + (int) (Math.random() * 89_999_999));
        assertThat(register(payeeBank, "PHONE", key, other, "Joao Lima", JOAO).status())
                .isEqualTo(201);
        String endToEndId =
                lookUp(payerBank, MARIA, key).json().path("endToEndId").asString();
        String another = participants.openAccount(PAYEE_BANK);
        Http.Response moved = payeeBank.send(
                "/directory/keys/" + key,
                "PUT",
                HttpRequest.BodyPublishers.ofString("{\"accountId\":\"" + another + "\",\"holderName\":\"Joao Lima\"}"),
                "application/json");
        assertThat(moved.status()).as("%s", moved).isEqualTo(200);
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response paid = payerBank.post(
                "/payments",
                Map.of("payerAccountId", payer, "payeeKey", key, "amountCentavos", 500, "endToEndId", endToEndId),
                "Idempotency-Key",
                "moved-" + UUID.randomUUID());

        assertThat(paid.status()).as("%s", paid).isEqualTo(409);
        assertThat(paid.problemType()).isEqualTo("key-moved");
        assertThat(events.since(mark)).as("nothing published").isEmpty();
    }

    @Test
    void aClaimToldOnTheDonorsStreamAndConfirmedMovesTheKeyToTheClaimersAccount() {
        String holdersAccount = participants.openAccount(bankIspb());
        String key = "porta." + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        assertThat(register(payerBank, "EMAIL", key, holdersAccount, "Maria Souza", MARIA)
                        .status())
                .isEqualTo(201);
        String newAccount = participants.openAccount(PAYEE_BANK);

        Http.Response opened = claimPortability(key, newAccount, "claim-" + key);
        assertThat(opened.status()).as("%s", opened).isEqualTo(201);
        String claimId = opened.json().path("claimId").asString();
        assertThat(opened.json().path("donorIspb").asString()).isEqualTo("00000081");
        assertThat(opened.json().path("status").asString()).isEqualTo("OPEN");

        // The donor reads its stream until the notice comes (a pull may come back empty before it).
        Http.Response stream = payerBank.get("/participants/00000081/stream/start");
        for (int pull = 0; pull < 10 && !stream.body().contains(claimId); pull++) {
            stream = payerBank.get(stream.header("PI-Pull-Next"));
        }
        assertThat(stream.body())
                .contains("\"type\":\"KeyClaimNotice\"")
                .contains(claimId)
                .contains("\"role\":\"DONOR\"")
                .contains("\"status\":\"OPEN\"");
        assertThat(payerBank
                        .json("/directory/claims?role=donor&status=OPEN")
                        .path("claims")
                        .toString())
                .contains(claimId);
        assertThat(participants.bank(83).get("/directory/claims/" + claimId).problemType())
                .as("a third bank")
                .isEqualTo("claim-not-found");
        assertThat(payeeBank
                        .post("/directory/claims/" + claimId + "/confirm", Map.of())
                        .problemType())
                .as("the claimer does not confirm")
                .isEqualTo("claim-not-found");

        Http.Response confirmed = payerBank.post("/directory/claims/" + claimId + "/confirm", Map.of());

        assertThat(confirmed.status()).as("%s", confirmed).isEqualTo(200);
        assertThat(confirmed.json().path("status").asString()).isEqualTo("COMPLETED");
        assertThat(payeeBank
                        .get("/directory/keys/" + key)
                        .json()
                        .path("accountId")
                        .asString())
                .isEqualTo(newAccount);
        assertThat(lookUp(payerBank, JOAO, key).json().path("ispb").asString()).isEqualTo("00000082");
        assertThat(payerBank
                        .post("/directory/claims/" + claimId + "/cancel", Map.of())
                        .problemType())
                .isEqualTo("claim-closed");
        Http.Response own = claimPortability(key, newAccount, "claim-again-" + key);
        assertThat(own.problemType()).as("a claim on one's own key").isEqualTo("claim-of-own-key");
    }

    @Test
    void badInputIsRefusedWithItsOwnProblemAndChangesNothing() {
        Map<String, String> malformed =
                Map.of("CPF", "52998224724", "CNPJ", "11222333000182", "PHONE", "5561912345678", "EMAIL", "maria@");
        malformed.forEach((type, key) -> {
            Http.Response refused = register(payeeBank, type, key, mariasAccount, "Maria", MARIA);
            assertThat(refused.status()).as("%s %s", type, refused).isEqualTo(422);
            assertThat(refused.problemType()).isEqualTo("invalid-key");
            assertThat(refused.json().path("field").asString()).isEqualTo("key");
        });
        Http.Response foreign = register(payerBank, "EMAIL", "x@example.com", mariasAccount, "Maria", MARIA);
        assertThat(foreign.problemType()).as("another bank's account").isEqualTo("unknown-account");
        Http.Response holder = register(payeeBank, "CPF", JOAO, mariasAccount, "Maria", MARIA);
        assertThat(holder.problemType()).isEqualTo("key-holder-mismatch");
        Http.Response operator =
                participants.operator().post("/directory/lookups", Map.of("key", "x@example.com"), "PI-PayerId", MARIA);
        assertThat(operator.status()).isEqualTo(403);
        Http.Response badPayer =
                payerBank.post("/directory/lookups", Map.of("key", "x@example.com"), "PI-PayerId", "52998224724");
        assertThat(badPayer.status()).isEqualTo(422);
        assertThat(badPayer.problemType()).isEqualTo("invalid-tax-id");
        Http.Response noPayer = payerBank.post("/directory/lookups", Map.of("key", "x@example.com"));
        assertThat(noPayer.status()).isEqualTo(400);
        assertThat(noPayer.json().path("field").asString()).isEqualTo("PI-PayerId");
        Http.Response notAKey = lookUp(payerBank, MARIA, "not a key");
        assertThat(notAKey.problemType()).isEqualTo("invalid-key");
        Http.Response noLookUp = payerBank.post(
                "/payments",
                Map.of("payerAccountId", payer, "payeeKey", "x@example.com", "amountCentavos", 500),
                "Idempotency-Key",
                "no-look-up-" + UUID.randomUUID());
        assertThat(noLookUp.problemType()).isEqualTo("missing-field");
        assertThat(payeeBank
                        .get("/directory/keys?accountId=" + mariasAccount)
                        .json()
                        .path("keys")
                        .toString())
                .doesNotContain("11222333000182", "52998224724", "x@example.com");
    }

    @Test
    void aSixthKeyOnAPersonsAccountIsRefused() {
        String account = participants.openAccount(PAYEE_BANK);
        for (int i = 0; i < 5; i++) {
            assertThat(register(payeeBank, "EMAIL", "five" + i + "." + account + "@example.com", account, "Joao", JOAO)
                            .status())
                    .isEqualTo(201);
        }
        Http.Response sixth = register(payeeBank, "EMAIL", "six." + account + "@example.com", account, "Joao", JOAO);
        assertThat(sixth.status()).isEqualTo(422);
        assertThat(sixth.problemType()).isEqualTo("key-limit-reached");
        assertThat(sixth.json().path("keysMax").asInt()).isEqualTo(5);
        assertThat(payeeBank
                        .get("/directory/keys?accountId=" + account)
                        .json()
                        .path("keys")
                        .size())
                .isEqualTo(5);
    }

    @Test
    void aStaticQrCodeIsMadeForAKeyDrawnAndPaid() throws Exception {
        String account = participants.openAccount(PAYEE_BANK);
        Http.Response evp = payeeBank.post(
                "/directory/keys",
                Map.of("keyType", "EVP", "accountId", account, "holderName", "Padaria Pao Quente", "holderTaxId", SHOP),
                "Idempotency-Key",
                "evp-" + account);
        assertThat(evp.status()).as("%s", evp).isEqualTo(201);
        String key = evp.json().path("key").asString();
        Map<String, Object> asked = Map.of(
                "key",
                key,
                "amountCentavos",
                2_500,
                "merchantName",
                "Padaria Pão Quente",
                "merchantCity",
                "São Paulo",
                "txid",
                "Pedido42");

        Http.Response made = payeeBank.post("/directory/qrcodes/static", asked);
        Http.Bytes image = payeeBank.postForBytes("/directory/qrcodes/static", asked, "image/png");

        assertThat(made.status()).as("%s", made).isEqualTo(201);
        String brCode = made.json().path("brCode").asString();
        assertThat(brCode).contains("Padaria Pao Quente").contains("Sao Paulo").contains("5405" + "25.00");
        assertThat(image.status()).isEqualTo(201);
        assertThat(image.contentType()).isEqualTo("image/png");
        assertThat(decode(image.body())).as("the image holds the code").isEqualTo(brCode);

        String endToEndId =
                lookUp(payerBank, MARIA, key).json().path("endToEndId").asString();
        Map<String, Object> byCode =
                new HashMap<>(Map.of("payerAccountId", payer, "brCode", brCode, "endToEndId", endToEndId));
        Http.Response wrongAmount = payerBank.post(
                "/payments", with(byCode, "amountCentavos", 2_000), "Idempotency-Key", "qr-wrong-" + account);
        String broken = brCode.substring(0, brCode.length() - 1) + (brCode.endsWith("0") ? "1" : "0");
        Http.Response badCrc =
                payerBank.post("/payments", with(byCode, "brCode", broken), "Idempotency-Key", "qr-crc-" + account);
        Http.Response paid = payerBank.post("/payments", byCode, "Idempotency-Key", "qr-" + account);

        assertThat(wrongAmount.status()).isEqualTo(422);
        assertThat(wrongAmount.problemType()).isEqualTo("br-code-amount-mismatch");
        assertThat(badCrc.status()).isEqualTo(422);
        assertThat(badCrc.problemType()).isEqualTo("br-code-crc-mismatch");
        assertThat(paid.status()).as("%s", paid).isEqualTo(202);
        assertThat(payerBank.post("/directory/qrcodes/static", asked).problemType())
                .as("a code for another bank's key")
                .isEqualTo("key-not-found");
    }

    @Test
    void aBatchOfLookUpsAnswersEachAsAloneAndItsFoundKeyIsPaid() {
        String account = participants.openAccount(PAYEE_BANK);
        String key = "batch." + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        assertThat(register(payeeBank, "EMAIL", key, account, "Ana Paula Reis", "24681357090")
                        .status())
                .isEqualTo(201);
        String asker = "12345678062";
        String scanner = "98765432029";
        List<Map<String, Object>> lookups = new ArrayList<>();
        lookups.add(Map.of("payerId", asker, "key", key));
        lookups.add(Map.of("payerId", asker, "key", "gone." + UUID.randomUUID() + "@example.com"));
        lookups.add(Map.of("payerId", "52998224724", "key", key));
        lookups.add(Map.of("payerId", asker, "key", "not a key"));
        for (int i = 0; i < 6; i++) {
            lookups.add(Map.of("payerId", scanner, "key", "scan" + i + "." + UUID.randomUUID() + "@example.com"));
        }

        Http.Response batch = payerBank.post("/directory/lookups/batch", Map.of("lookups", lookups));

        assertThat(batch.status()).as("%s", batch).isEqualTo(200);
        JsonNode body = batch.json();
        assertThat(body.path("foundCount").asInt()).isEqualTo(1);
        assertThat(body.path("refusedCount").asInt()).isEqualTo(9);
        JsonNode results = body.path("results");
        assertThat(results.get(0).path("status").asString()).isEqualTo("FOUND");
        JsonNode found = results.get(0).path("lookup");
        assertThat(found.path("accountId").asString()).isEqualTo(account);
        assertThat(found.path("holderName").asString()).isEqualTo("Ana P. R.");
        assertThat(found.path("holderTaxId").asString()).isEqualTo("***.813.570-**");
        List<String> problems = new ArrayList<>();
        for (int i = 1; i < results.size(); i++) {
            assertThat(results.get(i).path("index").asInt()).isEqualTo(i);
            assertThat(results.get(i).path("status").asString()).isEqualTo("REFUSED");
            problems.add(Http.slug(results.get(i).path("problem").path("type").asString()));
        }
        assertThat(problems)
                .as("as each look-up alone: 100 tokens of an end user, 20 a miss")
                .containsExactly(
                        "key-not-found",
                        "invalid-tax-id",
                        "invalid-key",
                        "key-not-found",
                        "key-not-found",
                        "key-not-found",
                        "key-not-found",
                        "key-not-found",
                        "look-up-rate-limited");
        assertThat(results.get(2).path("problem").path("field").asString()).isEqualTo("lookups[2].payerId");
        assertThat(results.get(9).path("problem").path("status").asInt()).isEqualTo(429);
        assertThat(results.get(9).path("problem").path("retryAfterSeconds").asLong())
                .isBetween(1L, 30L);
        assertThat(lookUp(payerBank, scanner, key).status())
                .as("the batch spent the scanner's bucket")
                .isEqualTo(429);

        Http.Response paid = payerBank.post(
                "/payments",
                Map.of(
                        "payerAccountId",
                        payer,
                        "payeeKey",
                        key,
                        "amountCentavos",
                        700,
                        "endToEndId",
                        found.path("endToEndId").asString()),
                "Idempotency-Key",
                "batch-by-key-" + UUID.randomUUID());
        assertThat(paid.status()).as("%s", paid).isEqualTo(202);

        Http.Response empty = payerBank.post("/directory/lookups/batch", Map.of("lookups", List.of()));
        assertThat(empty.status()).isEqualTo(422);
        assertThat(empty.problemType()).isEqualTo("invalid-batch-size");
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 1_001; i++) {
            tooMany.add(Map.of("payerId", asker, "key", key));
        }
        assertThat(payerBank
                        .post("/directory/lookups/batch", Map.of("lookups", tooMany))
                        .problemType())
                .isEqualTo("invalid-batch-size");
        Http.Response noPayer =
                payerBank.post("/directory/lookups/batch", Map.of("lookups", List.of(Map.of("key", key))));
        assertThat(noPayer.status()).isEqualTo(400);
        assertThat(noPayer.json().path("field").asString()).isEqualTo("lookups[0].payerId");
        assertThat(participants
                        .operator()
                        .post(
                                "/directory/lookups/batch",
                                Map.of("lookups", List.of(Map.of("payerId", asker, "key", key))))
                        .status())
                .isEqualTo(403);
        String metrics = participants.operator().get("/actuator/prometheus").body();
        List<String> counted = metrics.lines()
                .filter(line -> line.startsWith("pagora_directory_lookups_total{"))
                .toList();
        assertThat(counted)
                .anyMatch(line -> line.contains("result=\"found\""))
                .anyMatch(line -> line.contains("result=\"missing\""))
                .anyMatch(line -> line.contains("result=\"look-up-rate-limited\""));
    }

    @Test
    void aScanningEndUserIsRefusedOnEveryInstanceAndAfterARestart() {
        String scanner = "11144477735";
        int found = 0;
        int refused = 0;
        String retryAfter = null;
        for (int i = 0; i < 8; i++) {
            Http.Response answer = lookUp(payerBank, scanner, "scan" + i + "." + UUID.randomUUID() + "@example.com");
            if (answer.status() == 404) {
                found++;
                assertThat(answer.problemType()).isEqualTo("key-not-found");
            } else {
                refused++;
                assertThat(answer.status()).isEqualTo(429);
                assertThat(answer.problemType()).isEqualTo("look-up-rate-limited");
                retryAfter = answer.header("Retry-After");
            }
        }
        assertThat(found).as("100 tokens, 20 a miss").isEqualTo(5);
        assertThat(refused).isEqualTo(3);
        assertThat(Long.parseLong(retryAfter)).isBetween(1L, 30L);
        JsonNode policies =
                payerBank.json("/directory/policies?payerId=" + scanner).path("policies");
        assertThat(policies.get(1).path("bucket").asString()).isEqualTo("end-user");
        assertThat(policies.get(1).path("tokens").asDouble()).isLessThan(1.0);
        assertThat(policies.get(1).path("missCost").asInt()).isEqualTo(20);

        ConfigurableApplicationContext second = SecondInstance.start(
                database, context -> {}, "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers());
        try {
            Http other = SecondInstance.http(second, bankIdentity());
            assertThat(lookUp(other, scanner, "x@example.com").status())
                    .as("the other instance")
                    .isEqualTo(429);
            assertThat(lookUp(other, JOAO, "x@example.com").status())
                    .as("another end user")
                    .isEqualTo(404);
        } finally {
            second.close();
        }
        ConfigurableApplicationContext restarted = SecondInstance.start(
                database, context -> {}, "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers());
        try {
            Http other = SecondInstance.http(restarted, bankIdentity());
            assertThat(lookUp(other, scanner, "x@example.com").status())
                    .as("after a restart")
                    .isEqualTo(429);
        } finally {
            restarted.close();
        }
    }

    private static Map<String, Object> with(Map<String, Object> body, String name, Object value) {
        Map<String, Object> changed = new HashMap<>(body);
        changed.put(name, value);
        return changed;
    }

    private static String decode(byte[] png) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        int[] pixels = image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
        RGBLuminanceSource source = new RGBLuminanceSource(image.getWidth(), image.getHeight(), pixels);
        return new QRCodeReader()
                .decode(new BinaryBitmap(new HybridBinarizer(source)))
                .getText();
    }

    private static Http.Response register(
            Http bank, String type, String key, String account, String holderName, String holderTaxId) {
        return bank.post(
                "/directory/keys",
                Map.of(
                        "keyType",
                        type,
                        "key",
                        key,
                        "accountId",
                        account,
                        "holderName",
                        holderName,
                        "holderTaxId",
                        holderTaxId),
                "Idempotency-Key",
                "register-" + key);
    }

    /** The payee bank claims Maria's {@code key} for her account {@code account} there. */
    private Http.Response claimPortability(String key, String account, String idempotencyKey) {
        return payeeBank.post(
                "/directory/claims",
                Map.of(
                        "type",
                        "PORTABILITY",
                        "key",
                        key,
                        "accountId",
                        account,
                        "holderName",
                        "Maria Souza",
                        "holderTaxId",
                        MARIA),
                "Idempotency-Key",
                idempotencyKey);
    }

    private static Http.Response lookUp(Http bank, String payerId, String key) {
        return bank.post("/directory/lookups", Map.of("key", key), "PI-PayerId", payerId);
    }
}
