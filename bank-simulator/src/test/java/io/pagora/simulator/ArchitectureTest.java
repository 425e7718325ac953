package io.pagora.simulator;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the bank simulator is plain Java (no Spring) and uses no Pagora module but the kernel: it is a bank
 * outside the switch, speaking to it over the participants' protocol only, never through a service's code or
 * the events' contracts.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.BANK_SIMULATOR).tests();
    }
}
