package io.pagora.payments;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves payment-api uses no other service, local-runtime or test-support; that its domain is plain Java
 * and its application (intake, idempotency, participants) speaks only to the domain and ports; and
 * that its web, JDBC and Kafka adapters do not use one another.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.PAYMENT_API).tests();
    }
}
