package io.pagora.ledger.port;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the ledger port (the Ledger interface, accounts, transfers, result codes) uses only the kernel
 * and is plain Java: no TigerBeetle, JDBC, Spring or Micrometer type, no adapter.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.LEDGER_PORT).tests();
    }
}
