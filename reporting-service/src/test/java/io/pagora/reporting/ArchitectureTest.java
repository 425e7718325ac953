package io.pagora.reporting;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves reporting uses no other service, local-runtime or test-support, and reads the ledger only
 * through the port (no ledger adapter: the ledger bean comes from service-support); that its domains
 * (read model, reconciliation) are plain Java and its applications speak only to domains and ports (the
 * projection's counters are the Kafka adapter's); and that its web, JDBC and Kafka adapters do not use
 * one another. The rules are shared by every module: see {@link ArchitectureRules} and the module map
 * {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.REPORTING_SERVICE).tests();
    }
}
