package io.pagora.service.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestCertificates;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Proves the identity layer every participant-facing service shares, on a real server over mutual TLS with
 * certificates made at test time: a certificate's CN names the caller the application receives; nobody
 * else gets past it (no certificate, a CN naming no participant, a certificate from another CA); health
 * stays open for probes; the actuator's other endpoints are the operator's; every refusal is problem+json
 * and counted by reason.
 */
@SpringBootTest(
        classes = CallerSecurityTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.config.import=classpath:pagora-tls.yaml",
            "management.endpoints.web.exposure.include=health,info,prometheus"
        })
@ServerBacked
class CallerSecurityTest {

    @SpringBootApplication
    @Import(CallerSecurityConfiguration.class)
    static class App {
        @RestController
        static class WhoAmI {
            @GetMapping("/whoami")
            String whoami(Caller caller) {
                return caller.principalName();
            }
        }
    }

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        TestCertificates.register(registry);
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final TestCertificates certificates = TestCertificates.shared();

    @Test
    void a_bank_certificate_names_that_bank_to_the_application() {
        Http.Response response = Http.as(certificates.bank(12_345_678), port).get("/whoami");
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ispb-12345678");
    }

    @Test
    void the_operator_certificate_names_the_operator_and_may_read_the_actuator() {
        assertThat(Http.as(certificates.operator(), port).get("/whoami").body()).isEqualTo("operator");
        assertThat(Http.as(certificates.operator(), port).get("/actuator/info").status())
                .isEqualTo(200);
        assertThat(Http.as(certificates.operator(), port)
                        .get("/actuator/prometheus")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void the_monitor_certificate_reads_the_metrics_and_nothing_else() {
        Http monitor = Http.as(certificates.identity("monitor"), port);
        assertThat(monitor.get("/actuator/prometheus").status()).isEqualTo(200);
        double before = refusals("monitoring-only");
        for (String path : new String[] {"/whoami", "/actuator/info"}) {
            Http.Response refused = monitor.get(path);
            assertThat(refused.status()).as(path).isEqualTo(403);
            assertThat(refused.problemType()).isEqualTo("forbidden");
        }
        assertThat(refusals("monitoring-only")).isEqualTo(before + 2);
        assertThat(monitor.get("/actuator/health").json().has("components"))
                .as("health details are the operator's")
                .isFalse();
    }

    @Test
    void a_subject_with_several_common_names_or_a_multi_valued_rdn_names_nobody() {
        for (String subject : new String[] {
            "CN=operator,CN=ispb-00000001",
            "CN=operator+CN=ispb-00000001",
            "CN=operator+O=Pagora tests",
            "O=Pagora tests"
        }) {
            Http.Response response =
                    Http.as(certificates.withSubject(subject), port).get("/whoami");
            assertThat(response.status()).as(subject).isEqualTo(401);
        }
    }

    @Test
    void no_certificate_is_refused_with_401_problem_and_counted() {
        double before = refusals("anonymous");
        Http.Response response = Http.anonymous(port).get("/whoami");
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.problemType()).isEqualTo("unauthenticated");
        assertThat(refusals("anonymous")).isEqualTo(before + 1);
    }

    @Test
    void a_trusted_certificate_naming_no_participant_is_refused() {
        double before = refusals("unrecognized-identity");
        for (String name : new String[] {"ispb-1234", "ispb-123456789", "Operator", "admin", "ispb-1234567x"}) {
            Http.Response response = Http.as(certificates.identity(name), port).get("/whoami");
            assertThat(response.status()).as(name).isEqualTo(401);
            assertThat(response.problemType()).isEqualTo("unauthenticated");
        }
        assertThat(refusals("unrecognized-identity")).isEqualTo(before + 5);
    }

    @Test
    void a_certificate_signed_by_an_impostor_ca_fails_the_handshake() {
        TestCertificates.Identity forged = TestCertificates.impostor().bank(12_345_678);
        Http impostor = new Http(
                "https://127.0.0.1:" + port,
                io.pagora.kernel.tls.PemTls.mutual(forged.certificate(), forged.privateKey(), certificates.ca()));
        assertThatThrownBy(() -> impostor.get("/whoami")).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void health_answers_without_a_certificate_but_only_the_operator_sees_its_details() {
        Http.Response anonymous = Http.anonymous(port).get("/actuator/health");
        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.json().has("components")).as(anonymous.body()).isFalse();
        assertThat(Http.as(certificates.bank(1), port)
                        .get("/actuator/health")
                        .json()
                        .has("components"))
                .isFalse();
        assertThat(Http.as(certificates.operator(), port)
                        .get("/actuator/health")
                        .json()
                        .has("components"))
                .isTrue();
    }

    @Test
    void a_bank_may_not_read_the_actuator_nor_may_anybody_anonymous() {
        double before = refusals("operator-only");
        for (String path : new String[] {"/actuator/info", "/actuator/prometheus"}) {
            Http.Response bank = Http.as(certificates.bank(1), port).get(path);
            assertThat(bank.status()).as(path).isEqualTo(403);
            assertThat(bank.problemType()).isEqualTo("forbidden");
            assertThat(Http.anonymous(port).get(path).status()).as(path).isEqualTo(401);
        }
        assertThat(refusals("operator-only")).isEqualTo(before + 2);
    }

    private double refusals(String reason) {
        return meters.counter(MeteredAccessRefusals.METER, "reason", reason).count();
    }
}
