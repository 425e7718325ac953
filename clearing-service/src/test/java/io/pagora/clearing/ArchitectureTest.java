package io.pagora.clearing;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves clearing uses no other service, local-runtime or test-support; that its domain and application
 * (the clearing use case and its ports) know nothing of Spring, Kafka, JDBC or any adapter, so the
 * receiving bank, the outcome publisher and the ledger backend can each be replaced; and that its bank,
 * Kafka, ledger and metrics adapters do not use one another (metrics decorate ports, wired in config).
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.CLEARING_SERVICE).tests();
    }
}
