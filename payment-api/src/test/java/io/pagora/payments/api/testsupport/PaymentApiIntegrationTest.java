package io.pagora.payments.api.testsupport;

import io.pagora.ledger.port.Ledger;
import io.pagora.payments.PaymentApiApplication;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.TestKafka;
import io.pagora.testing.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole payment-api on real servers, on a random port: test-support's {@link TestKafka#shared() shared}
 * in-JVM Kafka broker (the service declares its topics, as in production) and a fresh PostgreSQL database
 * ({@link TestPostgres}) per test class, so classes never see each other's ledger or idempotency keys. The
 * context is closed after the class (its database is not reused by the next class). Add per-class properties
 * with {@code @TestPropertySource}.
 */
@SpringBootTest(classes = PaymentApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ServerBacked
public abstract class PaymentApiIntegrationTest {

    @LocalServerPort
    protected int port;

    /** The ledger the service uses: for checking balances and the money invariants. */
    @Autowired
    protected Ledger ledger;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        TestPostgres.register(registry);
        TestCertificates.register(registry);
        registry.add("spring.kafka.bootstrap-servers", PaymentApiIntegrationTest::kafkaBootstrapServers);
    }

    /** The shared broker's address, e.g. for a {@link RequestedEvents} reader or a second instance. */
    protected static String kafkaBootstrapServers() {
        return TestKafka.shared().bootstrapServers();
    }

    /** A loopback port nothing listens on (bound then released). */
    protected static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
