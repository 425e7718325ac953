package io.pagora.events;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the Kafka event contracts use only the kernel (no service, no ledger) and no Spring: plain
 * records with their Jackson mapping, which every service can read.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.EVENTS).tests();
    }
}
