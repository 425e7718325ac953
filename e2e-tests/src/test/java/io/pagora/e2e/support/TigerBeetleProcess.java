package io.pagora.e2e.support;

import io.pagora.testing.LocalTigerBeetle;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A scenario's TigerBeetle: a {@link LocalTigerBeetle} (test-support's TigerBeetle launcher: pinned at 0.16.78 or
 * newer, printed and refused if older; {@code --development} with production's 1 MiB request limit; its
 * death printed at once with its log tail) from the binary named by {@code TIGERBEETLE_BIN}, formatted
 * fresh for one scenario and deleted afterwards.
 *
 * <p>Without {@code TIGERBEETLE_BIN}, {@link #startOrSkip()} aborts the test with a JUnit assumption: it is
 * reported SKIPPED with {@link LocalTigerBeetle#SKIP_REASON}, never passed silently. A binary that is set
 * but refused or does not start fails the test.
 */
public final class TigerBeetleProcess implements AutoCloseable {

    private final LocalTigerBeetle server;

    private TigerBeetleProcess(LocalTigerBeetle server) {
        this.server = server;
    }

    public static TigerBeetleProcess startOrSkip() {
        Optional<Path> binary = LocalTigerBeetle.configuredBinary();
        if (binary.isEmpty()) {
            Pagora.log("%s", LocalTigerBeetle.SKIP_REASON); // visible in a quiet (-q) build too
            Assumptions.abort(LocalTigerBeetle.SKIP_REASON);
        }
        return new TigerBeetleProcess(LocalTigerBeetle.start(binary.orElseThrow(), "e2e"));
    }

    /** The replica's address for {@code pagora.ledger.tigerbeetle.addresses}. */
    public String address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
    }
}
