package io.pagora.testing;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves test support (real-server launchers, the ledger fixture and reference model, the fuzz harness)
 * uses only the kernel, the ledger port and the event contracts: no service, adapter or local-runtime.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.TEST_SUPPORT).tests();
    }
}
