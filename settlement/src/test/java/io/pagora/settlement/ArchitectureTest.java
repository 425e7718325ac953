package io.pagora.settlement;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the PIX settlement core uses only the kernel and the ledger port (never a ledger adapter, the
 * events or a service), that its domain is plain Java, and that its application speaks only to the
 * domain and the Ledger port.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.SETTLEMENT).tests();
    }
}
