package io.pagora.payments.api.testsupport;

import io.pagora.payments.PaymentApiApplication;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A second payment-api instance on the test's database, for tests that compare a healthy instance with
 * one under a fault. Settings are command-line arguments: they outrank application.yaml (builder
 * "properties" would not). It serves mutual TLS with the test CA's certificates, as the test's instance does.
 */
public final class SecondInstance {

    private SecondInstance() {}

    /** {@code database}: the {@code --spring.datasource.*} arguments of the test's database. */
    public static ConfigurableApplicationContext start(
            List<String> database,
            ApplicationContextInitializer<ConfigurableApplicationContext> initializer,
            String... settings) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--pagora.tls.directory=" + TestCertificates.shared().directory()));
        args.addAll(database);
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(PaymentApiApplication.class)
                .initializers(initializer)
                .run(args.toArray(String[]::new));
    }

    /** A client of {@code instance} presenting {@code identity}. */
    public static Http http(ConfigurableApplicationContext instance, TestCertificates.Identity identity) {
        return Http.as(
                identity,
                ((WebServerApplicationContext) instance).getWebServer().getPort());
    }
}
