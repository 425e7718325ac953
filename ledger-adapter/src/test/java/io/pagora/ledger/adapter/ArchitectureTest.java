package io.pagora.ledger.adapter;

import io.pagora.architecture.ArchitectureRules;
import io.pagora.architecture.PagoraModule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the ledger adapters use only the kernel and the port (never settlement, events or a
 * service); that the PostgreSQL, TigerBeetle and metrics adapters do not use one another (only the
 * Ledgers factory knows both backends); and that the module has no Spring type, so local-runtime and
 * the benchmarks can use it without a Spring context.
 * The rules are shared by every module: see {@link ArchitectureRules} and the module map {@link PagoraModule}.
 */
class ArchitectureTest {

    @TestFactory
    Stream<DynamicTest> rules() {
        return ArchitectureRules.of(PagoraModule.LEDGER_ADAPTER).tests();
    }
}
