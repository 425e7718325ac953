package io.pagora.e2e.support;

import io.pagora.clearing.ClearingServiceApplication;
import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.PaymentApiApplication;
import io.pagora.reporting.ReportingServiceApplication;
import io.pagora.testing.LocalTigerBeetle;
import io.pagora.testing.Settings;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.TestKafka;
import io.pagora.testing.TestPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The whole of Pagora running in this JVM for one scenario, on test-support's launchers: a fresh Kafka broker
 * ({@link TestKafka}), a fresh PostgreSQL database shared by the services (schemas {@code payment_api},
 * {@code reporting}, {@code ledger}; {@link TestPostgres}), a fresh TigerBeetle cluster for the {@code tigerbeetle}
 * backend ({@link LocalTigerBeetle}), and the three Spring Boot services on random ports — reporting-service,
 * payment-api, and clearing-service (which a test may stop and start again). The test also holds its own connection to the ledger the services use, to check the books.
 *
 * <p>payment-api and reporting-service serve mutual TLS with the test CA's server certificate
 * ({@link TestCertificates#shared()}, {@code pagora.tls.directory}), as on the local platform: every client of the
 * scenario presents the certificate of whoever calls ({@link Service}). clearing-service serves plain HTTP (its
 * actuator only).
 */
public final class Pagora implements AutoCloseable {

    /**
     * @param backend {@code postgresql} or {@code tigerbeetle} ({@code pagora.ledger.backend})
     * @param acceptRate the receiving-bank simulator's share of accepted payments
     * @param noAnswerRate its share of payments never answered (they expire); the rest are refused
     * @param pendingTimeout how long a reserved chain waits for the receiving bank (whole seconds)
     * @param clearingConsumers clearing's listener threads
     */
    public record Options(
            String backend, double acceptRate, double noAnswerRate, Duration pendingTimeout, int clearingConsumers) {}

    /** What the three services set alike in a scenario, besides the scenario's database and broker. */
    private static final List<String> COMMON_SETTINGS = List.of(
            "spring.main.banner-mode=off",
            "server.port=0",
            "server.shutdown=immediate",
            "spring.lifecycle.timeout-per-shutdown-phase=5s",
            "spring.datasource.hikari.maximum-pool-size=6",
            // Consumers answer within 100 ms when there is little to fetch: the scenario waits less.
            "spring.kafka.consumer.properties.fetch.max.wait.ms=100",
            // Logging is one system per JVM: every service sets the same levels, so none undoes another's.
            "logging.level.root=WARN",
            "logging.level.io.pagora=WARN",
            "logging.level.org.apache.kafka=ERROR",
            "logging.level.kafka=ERROR",
            "logging.level.state.change.logger=ERROR",
            // The embedded broker logs its own shutdown as errors.
            "logging.level.org.apache.kafka.coordinator=OFF");

    /** Spring Boot's security auto-configurations for a servlet application (spring-boot-security's imports). */
    private static final List<String> CLEARING_HAS_NO_SECURITY = List.of(
            "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration");

    private final Options options;
    /** payment-api settings a scenario sets beyond the common ones (e.g. a short return window). */
    private final Map<String, String> paymentApiSettings;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<ConfigurableApplicationContext> clearings = new ArrayList<>();
    private TestKafka kafka;
    private TestPostgres.Database database;
    private LocalTigerBeetle tigerBeetle;
    private ConfigurableApplicationContext reportingContext;
    private ConfigurableApplicationContext paymentApiContext;
    private Map<String, String> paymentApiProperties;
    private Service reporting;
    private Service paymentApi;
    private Ledger ledger;

    private Pagora(Options options, Map<String, String> paymentApiSettings) {
        this.options = options;
        this.paymentApiSettings = Map.copyOf(paymentApiSettings);
    }

    /**
     * Starts the infrastructure, reporting-service and payment-api; clearing-service is started by
     * {@link #startClearing}. For the {@code tigerbeetle} backend without {@code TIGERBEETLE_BIN} the
     * test is aborted (SKIPPED) before anything starts.
     */
    public static Pagora start(Options options) {
        return start(options, Map.of());
    }

    /** As {@link #start(Options)}, with {@code paymentApiSettings} set on payment-api besides the common ones. */
    public static Pagora start(Options options, Map<String, String> paymentApiSettings) {
        Pagora pagora = new Pagora(options, paymentApiSettings);
        try {
            pagora.startEverythingButClearing();
        } catch (RuntimeException | Error e) {
            pagora.close();
            throw e;
        }
        return pagora;
    }

    private void startEverythingButClearing() {
        if ("tigerbeetle".equals(options.backend())) {
            tigerBeetle = LocalTigerBeetle.startOrSkip("e2e");
            resources.add(tigerBeetle);
        }
        long started = System.nanoTime();
        kafka = TestKafka.start();
        resources.add(kafka);
        database = TestPostgres.freshDatabase();
        resources.add(database);

        Map<String, String> reportingProperties = common("reporting");
        reportingProperties.put("pagora.reporting.projection.transient-retry-max-interval", "1s");
        // The projection's poll is a window of its own (over the fetch wait above): short, so the scenario waits less.
        reportingProperties.put("pagora.reporting.projection.window", "100ms");
        // The online reconciliation runs as on the local platform: it reads the same ledger as the other services,
        // judging a payment once its pending timeout and expiry margin are over, not after the default minute.
        reportingProperties.putAll(ledgerProperties());
        reportingProperties.put("pagora.reporting.reconciliation.enabled", "true");
        reportingProperties.put("pagora.reporting.reconciliation.interval", "500ms");
        reportingProperties.put(
                "pagora.reporting.reconciliation.final-within",
                options.pendingTimeout().plusSeconds(3).toMillis() + "ms");
        reportingProperties.put("pagora.reporting.reconciliation.balance-interval", "1s");
        reportingContext = ServiceApplication.start(
                ReportingServiceApplication.class, "reporting-service", reportingProperties, List.of());
        resources.add(reportingContext);
        reporting = new Service(ServiceApplication.port(reportingContext));

        paymentApiProperties = common("payment-api");
        // Streams hand unacknowledged messages to another pull after 2 s, not 30: a scenario sees redelivery soon.
        paymentApiProperties.put("pagora.participants.lease-timeout", "2s");
        paymentApiProperties.put("pagora.participants.pull-wait", "500ms");
        paymentApiProperties.putAll(ledgerProperties());
        // The 202's Location names the payment's status on this run's reporting-service.
        paymentApiProperties.put("pagora.payments.status-base-url", reporting.base());
        paymentApiProperties.putAll(paymentApiSettings);
        paymentApiContext =
                ServiceApplication.start(PaymentApiApplication.class, "payment-api", paymentApiProperties, List.of());
        resources.add(paymentApiContext);
        paymentApi = new Service(ServiceApplication.port(paymentApiContext));

        ledger = Ledgers.open(
                new Ledgers.Settings(
                        options.backend(),
                        tigerBeetle == null ? "" : tigerBeetle.address(),
                        0,
                        Duration.ofSeconds(10),
                        16),
                database::dataSource);
        resources.add(ledger);
        log(
                "kafka, postgresql%s, reporting-service and payment-api up in %d ms (ledger backend %s)",
                tigerBeetle == null ? "" : ", tigerbeetle",
                (System.nanoTime() - started) / 1_000_000,
                ledger.backendName());
    }

    /** Starts (or restarts) clearing-service as configured. */
    public ConfigurableApplicationContext startClearing() {
        return startClearing(context -> {});
    }

    /** Starts (or restarts) clearing-service; {@code initializer} may add beans or decorators for a test. */
    public ConfigurableApplicationContext startClearing(
            ApplicationContextInitializer<ConfigurableApplicationContext> initializer) {
        return startClearing(initializer, "simulated");
    }

    /**
     * Starts (or restarts) clearing-service with participants as receiving banks: it instructs them over their
     * streams and applies the answers they send to payment-api (docs/participants.md).
     */
    public ConfigurableApplicationContext startClearingWithParticipants() {
        return startClearing(context -> {}, "participants");
    }

    /**
     * Stops payment-api as a crash would (no graceful drain) and starts it again on a new port: its streams are
     * gone, their acknowledged positions are not. {@link #paymentApi()} then names the new instance.
     */
    public void restartPaymentApi() {
        paymentApiContext.close();
        resources.remove(paymentApiContext);
        paymentApiContext =
                ServiceApplication.start(PaymentApiApplication.class, "payment-api", paymentApiProperties, List.of());
        resources.add(paymentApiContext);
        paymentApi = new Service(ServiceApplication.port(paymentApiContext));
        log("payment-api restarted on port %d", ServiceApplication.port(paymentApiContext));
    }

    /** Starts (or restarts) clearing-service with the test's own receiving bank (clearing's "provided" bank). */
    public ConfigurableApplicationContext startClearingWithBank(ReceivingBank bank) {
        return startClearingWithBank(bank, context -> {});
    }

    /** The same; {@code initializer} may add beans of this instance's own (e.g. a consumer factory customizer). */
    public ConfigurableApplicationContext startClearingWithBank(
            ReceivingBank bank, ApplicationContextInitializer<ConfigurableApplicationContext> initializer) {
        return startClearing(
                context -> {
                    ((GenericApplicationContext) context)
                            .registerBean("testReceivingBank", ReceivingBank.class, () -> bank);
                    initializer.initialize(context);
                },
                "provided");
    }

    private ConfigurableApplicationContext startClearing(
            ApplicationContextInitializer<ConfigurableApplicationContext> initializer, String receivingBank) {
        Map<String, String> properties = common("clearing");
        properties.put("pagora.clearing.receiving-bank", receivingBank);
        properties.putAll(ledgerProperties());
        // clearing-service has no migrations of its own (the ledger migrates itself); Flyway is only on this
        // shared class path because of the other two services.
        properties.put("spring.flyway.enabled", "false");
        // Nor has it Spring Security (it serves no participant, only its actuator): here the other two services put it
        // on the shared class path, and Boot would lock clearing's actuator behind a generated password.
        properties.put("spring.autoconfigure.exclude", String.join(",", CLEARING_HAS_NO_SECURITY));
        properties.put(
                "pagora.clearing.pending-timeout", options.pendingTimeout().toSeconds() + "s");
        properties.put("pagora.clearing.expiry-margin", "200ms");
        properties.put("pagora.clearing.sweep-interval", "200ms");
        properties.put("pagora.clearing.consumers", Integer.toString(options.clearingConsumers()));
        properties.put("pagora.clearing.retry.initial-interval", "50ms");
        properties.put("pagora.clearing.retry.max-interval", "1s");
        properties.put("pagora.clearing.bank.accept-rate", Double.toString(options.acceptRate()));
        properties.put("pagora.clearing.bank.no-answer-rate", Double.toString(options.noAnswerRate()));
        properties.put("pagora.clearing.bank.answer-latency", "1ms");
        long started = System.nanoTime();
        ConfigurableApplicationContext clearing = ServiceApplication.start(
                ClearingServiceApplication.class, "clearing-service", properties, List.of(initializer));
        clearings.add(clearing);
        log("clearing-service #%d up in %d ms", clearings.size(), (System.nanoTime() - started) / 1_000_000);
        return clearing;
    }

    private Map<String, String> common(String pool) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.putAll(database.springProperties());
        properties.put("spring.datasource.hikari.pool-name", pool);
        properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
        // The participant-facing services' server certificate and trusted CA (clearing-service reads none).
        properties.put(
                "pagora.tls.directory", TestCertificates.shared().directory().toString());
        return Settings.putAll(properties, COMMON_SETTINGS);
    }

    private Map<String, String> ledgerProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("pagora.ledger.backend", options.backend());
        if (tigerBeetle != null) {
            properties.put("pagora.ledger.tigerbeetle.addresses", tigerBeetle.address());
            properties.put("pagora.ledger.tigerbeetle.cluster-id", "0");
        }
        return properties;
    }

    public Options options() {
        return options;
    }

    public Service paymentApi() {
        return paymentApi;
    }

    public Service reporting() {
        return reporting;
    }

    /** The test's own connection to the ledger the services use (same database, or same TigerBeetle cluster). */
    public Ledger ledger() {
        return ledger;
    }

    public TestKafka kafka() {
        return kafka;
    }

    public static void log(String format, Object... arguments) {
        System.out.printf("[e2e] " + format + "%n", arguments);
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        // Services first (newest first), then the ledger client, the database, the broker, TigerBeetle.
        List<AutoCloseable> order = new ArrayList<>(clearings.reversed());
        List<AutoCloseable> rest = new ArrayList<>(resources);
        order.addAll(rest.reversed());
        for (AutoCloseable resource : order) {
            try {
                if (resource instanceof ConfigurableApplicationContext context && !context.isActive()) {
                    continue;
                }
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("could not stop " + resource, e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
