package io.pagora.local.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The documentation's walk-throughs run as typed, and a stale one fails: a refused call, a failing command. */
class WalkthroughTest {

    @TempDir
    Path root;

    private HttpServer server;
    private String url;

    @BeforeEach
    void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ok", exchange -> answer(exchange, 200));
        server.createContext("/missing", exchange -> answer(exchange, 404));
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void onlyMarkedShellBlocksRunInTheirOrder() {
        List<String> markdown = List.of(
                "# Title",
                "```sh",
                "echo not marked",
                "```",
                Walkthrough.MARKER,
                "```sh",
                "echo first",
                "echo second",
                "```",
                "text",
                Walkthrough.MARKER,
                "```sh",
                "echo third",
                "```");
        List<Walkthrough.Block> blocks = Walkthrough.blocks(Path.of("doc.md"), markdown);
        assertThat(blocks)
                .extracting(Walkthrough.Block::script)
                .containsExactly("echo first\necho second\n", "echo third\n");
        assertThat(blocks).extracting(Walkthrough.Block::where).containsExactly("doc.md:6", "doc.md:12");
    }

    @Test
    void aMarkerNotAboveAShellBlockIsRefused() {
        assertThatThrownBy(() -> Walkthrough.blocks(
                        Path.of("doc.md"), List.of(Walkthrough.MARKER, "some text", "```sh", "x", "```")))
                .hasMessageContaining("doc.md:1");
        assertThatThrownBy(() ->
                        Walkthrough.blocks(Path.of("doc.md"), List.of(Walkthrough.MARKER, "```sh", "never closed")))
                .hasMessageContaining("closed");
    }

    @Test
    void aCallAnsweredWithSuccessPasses() throws Exception {
        assertThat(run("curl " + url + "/ok\n")).isZero();
    }

    @Test
    void aRefusedCallFailsTheBlockAndStopsIt() throws Exception {
        Path after = root.resolve("after-the-refused-call");
        assertThat(run("curl " + url + "/missing\ntouch " + after + "\n")).isNotZero();
        assertThat(after).doesNotExist();
    }

    @Test
    void aFailingCommandFailsTheBlock() throws Exception {
        assertThat(run("true\nfalse\n")).isNotZero();
        assertThat(run("false | cat\n")).as("pipefail").isNotZero();
    }

    @Test
    void theReadmesWalkThroughsAreMarked() throws Exception {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        for (String file : List.of("README.md", "k6/README.md")) {
            List<String> lines = Files.readAllLines(repository.resolve(file), StandardCharsets.UTF_8);
            assertThat(Walkthrough.blocks(Path.of(file), lines)).as(file).isNotEmpty();
        }
    }

    private int run(String script) throws Exception {
        return Walkthrough.run(new Walkthrough.Block(Path.of("test.md"), 1, script), root, 30);
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status) throws java.io.IOException {
        byte[] body = ("status " + status).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
