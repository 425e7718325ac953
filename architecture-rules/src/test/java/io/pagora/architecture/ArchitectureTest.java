package io.pagora.architecture;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The rules hold for the module that holds them: plain Java over ArchUnit, using no other Pagora module. */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.ARCHITECTURE_RULES).tests();
    }
}
