package io.pagora.clearing.testsupport;

import io.pagora.clearing.ClearingServiceApplication;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.Settings;
import io.pagora.testing.TestKafka;
import io.pagora.testing.TestPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Real infrastructure for one test: a fresh embedded Kafka (KRaft) broker, a fresh PostgreSQL
 * database holding the real PostgreSQL ledger with a {@link PixWorld} in it, and the clearing
 * service started (and restarted) as a real Spring Boot application with {@link FaultInjection}.
 */
@ServerBacked
public abstract class ClearingTestBase {

    protected static final Duration OUTCOMES_TIMEOUT = Duration.ofSeconds(60);

    /** The service's configuration in tests: short timeouts, one consumer thread, a bank that accepts everything. */
    private static final List<String> SETTINGS = List.of(
            "spring.main.banner-mode=off",
            "spring.main.web-application-type=none",
            "logging.level.root=WARN",
            "logging.level.io.pagora=INFO",
            "spring.datasource.hikari.maximum-pool-size=4",
            "pagora.clearing.pending-timeout=2s",
            "pagora.clearing.expiry-margin=200ms",
            "pagora.clearing.consumers=1",
            "pagora.clearing.sweep-interval=200ms",
            "pagora.clearing.retry.initial-interval=20ms",
            "pagora.clearing.retry.max-interval=200ms",
            "pagora.clearing.retry.attempts=2",
            "pagora.clearing.bank.accept-rate=1.0",
            "pagora.clearing.bank.no-answer-rate=0",
            "pagora.clearing.bank.answer-latency=0ms");

    protected final Faults faults = new Faults();
    protected TestKafka kafka;
    protected TestPostgres.Database database;
    protected Ledger ledger;
    protected PixWorld world;
    protected OutcomeReader outcomes;
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
    private int crashesExpected;

    @BeforeEach
    void startInfrastructure() {
        database = TestPostgres.freshDatabase();
        ledger = openTestLedger(); // first: a test without its ledger is skipped before Kafka starts
        kafka = TestKafka.start();
        world = new PixWorld(ledger);
        outcomes = new OutcomeReader(kafka.bootstrapServers());
    }

    /** The test's own connection to the ledger the service uses: for seeding and for checking the books. */
    protected Ledger openTestLedger() {
        return PostgresLedger.migrateAndOpen(database.dataSource());
    }

    @AfterEach
    void stopEverything() {
        for (ConfigurableApplicationContext app : apps.reversed()) {
            app.close();
        }
        for (AutoCloseable resource : new AutoCloseable[] {outcomes, ledger, database, kafka}) {
            if (resource != null) {
                try {
                    resource.close();
                } catch (Exception e) {
                    throw new IllegalStateException("could not stop " + resource, e);
                }
            }
        }
    }

    /** The test's broker and database, and {@link #SETTINGS}. */
    protected Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.putAll(database.springProperties());
        return Settings.putAll(properties, SETTINGS);
    }

    /** Starts the clearing service with {@link #properties()} plus {@code overrides} ("key=value"). */
    protected ConfigurableApplicationContext startClearing(String... overrides) {
        String[] arguments = Settings.arguments(Settings.putAll(properties(), List.of(overrides)));
        ConfigurableApplicationContext app = new SpringApplicationBuilder(ClearingServiceApplication.class)
                .initializers(context -> context.getBeanFactory().addBeanPostProcessor(new FaultInjection(faults)))
                .run(arguments);
        apps.add(app);
        return app;
    }

    /**
     * After a {@link SimulatedCrash}: waits until it happened, then closes the application context,
     * as the dead process's resources would be released. The next {@link #startClearing} is the restart.
     */
    protected void awaitCrashAndClose(ConfigurableApplicationContext app) throws InterruptedException {
        crashesExpected++;
        if (!faults.awaitCrashes(crashesExpected, OUTCOMES_TIMEOUT.toSeconds())) {
            throw new AssertionError("the armed crash did not happen within " + OUTCOMES_TIMEOUT);
        }
        app.close();
    }

    protected void publish(List<PaymentRequested> payments) {
        kafka.publish(Topics.PAYMENTS_REQUESTED, payments);
    }

    protected List<PaymentOutcome> awaitOutcomes(Collection<PaymentRequested> payments) {
        return outcomes.awaitOutcomes(payments, OUTCOMES_TIMEOUT);
    }

    /** Waits for every payment's outcome, lets late duplicates arrive, then checks the money invariants. */
    protected Map<String, String> awaitSettledBooks(List<PaymentRequested> payments) {
        awaitOutcomes(payments);
        List<PaymentOutcome> all = outcomes.drain(Duration.ofMillis(500));
        return Books.check(world, payments, all);
    }
}
