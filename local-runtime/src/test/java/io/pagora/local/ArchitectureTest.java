package io.pagora.local;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the launcher's Java side (demo report, bench, verify, chaos) has no Spring and reaches
 * TigerBeetle only through the Ledger port; it may use every other module, and no module uses it.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.LOCAL_RUNTIME).tests();
    }
}
