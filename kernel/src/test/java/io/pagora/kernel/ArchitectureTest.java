package io.pagora.kernel;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the kernel depends on no other Pagora module and is plain Java: the JDK only, no framework,
 * no backend, no logging.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.KERNEL).tests();
    }
}
