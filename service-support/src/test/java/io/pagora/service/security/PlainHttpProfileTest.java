package io.pagora.service.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestCertificates;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Proves that plain HTTP happens only on purpose: the {@code plain-http} profile (local experiments) names callers
 * by a header, without TLS and on loopback only; a service refuses to start with TLS off and no profile, with the
 * profile and TLS on (a client without a certificate would name itself), or with the profile on another address;
 * and over TLS the header names nobody.
 */
@ServerBacked
class PlainHttpProfileTest {

    private static final String HEADER = CallerSecurityConfiguration.PLAIN_HTTP_IDENTITY_HEADER;

    @Nested
    @SpringBootTest(
            classes = CallerSecurityTest.App.class,
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "spring.config.import=classpath:pagora-tls.yaml")
    @ActiveProfiles(CallerSecurityConfiguration.PLAIN_HTTP_PROFILE)
    class WithTheProfile {

        @LocalServerPort
        int port;

        @DynamicPropertySource
        static void tls(DynamicPropertyRegistry registry) {
            TestCertificates.register(registry);
        }

        @Test
        void the_header_names_the_caller_and_without_it_nobody_is_let_in() {
            Http plain = new Http("http://127.0.0.1:" + port);
            assertThat(plain.get("/whoami").status()).isEqualTo(401);
            Http.Response named = plain.send(
                    "/whoami", "GET", java.net.http.HttpRequest.BodyPublishers.noBody(), null, HEADER, "ispb-00000007");
            assertThat(named.body()).isEqualTo("ispb-00000007");
            Http.Response nobody = plain.send(
                    "/whoami", "GET", java.net.http.HttpRequest.BodyPublishers.noBody(), null, HEADER, "root");
            assertThat(nobody.status()).isEqualTo(401);
        }
    }

    @Test
    void over_tls_the_header_names_nobody() {
        try (ConfigurableApplicationContext service = start()) {
            Http anonymous = Http.anonymous(port(service));
            Http.Response response = anonymous.send(
                    "/whoami", "GET", java.net.http.HttpRequest.BodyPublishers.noBody(), null, HEADER, "operator");
            assertThat(response.status()).isEqualTo(401);
        }
    }

    @Test
    void a_service_refuses_to_start_with_tls_off_and_no_profile() {
        assertThatThrownBy(() -> start("server.ssl.enabled=false").close()).hasStackTraceContaining("TLS is off");
    }

    @Test
    void the_profile_refuses_to_start_with_tls_on() {
        assertThatThrownBy(() -> start("spring.profiles.active=plain-http", "server.ssl.enabled=true")
                        .close())
                .hasStackTraceContaining("runs without TLS only");
    }

    @Test
    void the_profile_refuses_to_start_on_an_address_other_than_loopback() {
        assertThatThrownBy(() -> start("spring.profiles.active=plain-http", "server.address=0.0.0.0")
                        .close())
                .hasStackTraceContaining("loopback address only");
    }

    /** Started with {@code properties} as command-line arguments: above every configuration file, as an operator's would be. */
    private static ConfigurableApplicationContext start(String... properties) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--spring.config.import=classpath:pagora-tls.yaml",
                "--pagora.tls.directory=" + TestCertificates.shared().directory()));
        for (String property : properties) {
            arguments.add("--" + property);
        }
        return new SpringApplicationBuilder(CallerSecurityTest.App.class).run(arguments.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext service) {
        return Integer.parseInt(service.getEnvironment().getProperty("local.server.port"));
    }
}
