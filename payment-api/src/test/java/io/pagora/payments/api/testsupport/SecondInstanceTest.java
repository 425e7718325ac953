package io.pagora.payments.api.testsupport;

import io.pagora.payments.PaymentApiApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * For tests that compare a healthy payment-api instance with a second one under a fault (see
 * {@link SecondInstance}): the healthy instance, the requested-events reader, and one bank of the
 * subclass's own with a payer and a payee.
 */
@SpringBootTest(classes = PaymentApiApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SecondInstanceTest {

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestInfrastructure.register(registry);
    }

    @LocalServerPort
    protected int port;

    @Value("${spring.datasource.url}")
    protected String databaseUrl;

    protected Http healthy;
    protected RequestedEvents events;
    protected String payer;
    protected String payee;

    /** An ISPB no other test class uses, and its bank's name. */
    protected abstract int bankIspb();

    @BeforeAll
    final void openHealthyInstance() {
        healthy = new Http(port);
        events = new RequestedEvents(TestInfrastructure.kafkaBootstrapServers());
        Participants participants = new Participants(healthy);
        participants.registerBank(bankIspb(), "Banco " + bankIspb());
        payer = participants.openAccount(bankIspb());
        payee = participants.openAccount(bankIspb());
    }

    @AfterAll
    final void closeEvents() {
        events.close();
    }
}
