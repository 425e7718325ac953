package io.pagora.payments.api.testsupport;

import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * For tests that compare a healthy payment-api instance with a second one under a fault (see
 * {@link SecondInstance}): the healthy instance, the requested-events reader, and one bank of the
 * subclass's own with a payer and a payee. {@link #healthy} presents that bank's certificate, and so should the
 * subclass's clients of its second instance ({@link #bankIdentity()}): the bank pays from its own customers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SecondInstanceTest extends PaymentApiIntegrationTest {

    /** The healthy instance's database, as arguments for {@link SecondInstance#start}. */
    protected List<String> database;

    protected Http healthy;
    protected RequestedEvents events;
    protected String payer;
    protected String payee;

    /** An ISPB no other test class uses, and its bank's name. */
    protected abstract int bankIspb();

    /** The certificate of the subclass's bank, which owns {@link #payer} and {@link #payee}. */
    protected TestCertificates.Identity bankIdentity() {
        return TestCertificates.shared().bank(bankIspb());
    }

    @BeforeAll
    final void openHealthyInstance(@Autowired Environment environment) {
        database = Stream.of("url", "username", "password")
                .map(name -> "--spring.datasource." + name + "="
                        + environment.getRequiredProperty("spring.datasource." + name))
                .toList();
        events = new RequestedEvents(kafkaBootstrapServers());
        Participants participants = new Participants(port);
        healthy = participants.bank(bankIspb());
        participants.registerBank(bankIspb(), "Banco " + bankIspb());
        payer = participants.openAccount(bankIspb());
        payee = participants.openAccount(bankIspb());
    }

    @AfterAll
    final void closeEvents() {
        events.close();
    }
}
