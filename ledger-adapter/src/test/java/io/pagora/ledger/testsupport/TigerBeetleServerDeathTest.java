package io.pagora.ledger.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TigerBeetleServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves a test server that dies fails its callers at once, with its log: a call blocked in TigerBeetle's
 * client (which would otherwise retry for the ledger's whole 30 s deadline) is released promptly when the
 * server is killed with SIGKILL, with {@link TigerBeetleServer.DiedException} naming the signal and
 * carrying the tail of the server's log; every later call on that ledger, and every new ledger on that
 * server, fails the same way without waiting.
 *
 * <p>The server is this test's own ({@link TigerBeetleServer#startOwn()}), never the shared one. It is
 * frozen (SIGSTOP) before the call, so the call is certainly in flight when the kill comes. Its time
 * bounds are generous (a third of the deadline it replaces), so it cannot flake on a busy machine.
 * Without {@code TIGERBEETLE_BIN} the test is SKIPPED. It moves no money: its calls create and look up
 * accounts only.
 */
@ServerBacked
class TigerBeetleServerDeathTest {

    /** The suites' deadline: what a blocked call would wait out without the harness's watch. */
    private static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 4);

    private static final long RELEASED_WITHIN_SECONDS = 10;
    private static final int LEDGER = 700;

    @Test
    @Timeout(180)
    void aKilledServerFailsTheBlockedCallAndEveryLaterOneWithItsLogTail() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (TigerBeetleServer server = TigerBeetleServer.startOwn();
                Ledger ledger =
                        server.openLedger((cluster, address) -> new TigerBeetleLedger(cluster, address, CONFIG))) {
            Id128 account = new Id128(new SecureRandom().nextLong(1, Long.MAX_VALUE), 1);
            // A working client first, so what follows is about the death alone.
            assertThat(ledger.createAccounts(List.of(NewAccount.of(account, LEDGER, 1, AccountFlags.NONE))))
                    .containsExactly(AccountResult.OK);

            signal(server.pid(), "-STOP");
            CompletableFuture<?> blocked =
                    CompletableFuture.supplyAsync(() -> ledger.lookupAccounts(List.of(account)), caller);
            await().alias("a frozen server answers nothing")
                    .during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(RELEASED_WITHIN_SECONDS))
                    .until(() -> !blocked.isDone());

            signal(server.pid(), "-KILL");
            String lastLogLine = lastLine(server);

            assertThatThrownBy(() -> blocked.get(RELEASED_WITHIN_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(TigerBeetleServer.DiedException.class)
                    .hasMessageContaining("killed by signal 9")
                    .hasMessageContaining("ends with:")
                    .hasMessageContaining(lastLogLine);
            assertThatThrownBy(() -> ledger.lookupAccounts(List.of(account)))
                    .isInstanceOf(TigerBeetleServer.DiedException.class)
                    .hasMessageContaining(lastLogLine);
            assertThatThrownBy(() ->
                            server.openLedger((cluster, address) -> new TigerBeetleLedger(cluster, address, CONFIG)))
                    .isInstanceOf(TigerBeetleServer.DiedException.class)
                    .hasMessageContaining("killed by signal 9");
        } finally {
            caller.shutdownNow();
        }
    }

    private static void signal(long pid, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS))
                .as("kill %s %d finished", signal, pid)
                .isTrue();
        assertThat(kill.exitValue()).as("kill %s %d", signal, pid).isZero();
    }

    /** The log's last non-blank line: the watch quotes the log's tail, so its end must be in the failure. */
    private static String lastLine(TigerBeetleServer server) throws IOException {
        List<String> lines = Files.readAllLines(server.log(), StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank())
                .toList();
        assertThat(lines).as("the server logged its start").isNotEmpty();
        return lines.getLast();
    }
}
