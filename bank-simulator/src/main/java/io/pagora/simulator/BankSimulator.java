package io.pagora.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.pagora.kernel.tls.PemTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bank simulator: acts for the seeded banks, each with its own client certificate, over the protocol of
 * docs/participants.md only. Its control port (loopback) serves {@code GET /metrics}, {@code GET /banks}, and
 * {@code POST /banks/{ispb}/up|down|slow?ms=N} to switch one bank's behaviour at runtime, and
 * {@code POST /banks/{ispb}/returns?share=S} to change the share of the payments settled to it that it returns.
 *
 * <pre>
 * java -jar bank-simulator.jar --switch=https://127.0.0.1:8080[,https://127.0.0.1:8180] --tls=var/tls --banks=10001111,10002222
 *      [--accept=0.95] [--refuse=0.05] [--latency-ms=0] [--jitter-ms=0] [--control-port=8090] [--return-rate=0]
 *      [--report-rate=0] [--report-accept=0.9]   (infraction reports on that share of its customers' settled payments;
 *                                                 with any, it analyses the reports on payments to its customers)
 * </pre>
 */
public final class BankSimulator {

    private static final Logger log = LoggerFactory.getLogger(BankSimulator.class);

    private BankSimulator() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        // One or more payment-api instances, comma-separated: bank i starts on instance i mod their number.
        List<URI> switchUris = java.util.Arrays.stream(
                        required(options, "switch").split(","))
                .map(URI::create)
                .toList();
        Path tls = Path.of(required(options, "tls"));
        Behaviour behaviour = new Behaviour(
                number(options, "accept", 0.95),
                number(options, "refuse", 0.05),
                (long) number(options, "latency-ms", 0),
                (long) number(options, "jitter-ms", 0),
                Behaviour.Mode.UP,
                0);
        Metrics metrics = new Metrics();
        Map<String, SimulatedBank> banks = new LinkedHashMap<>();
        for (String ispb : required(options, "banks").split(",")) {
            if (!ispb.matches("[0-9]{8}")) {
                throw new IllegalArgumentException("an ISPB is 8 digits: " + ispb);
            }
            Path identity = tls.resolve("participants").resolve("ispb-" + ispb);
            SwitchClient client = new SwitchClient(
                    switchUris,
                    banks.size(),
                    ispb,
                    PemTls.mutual(Path.of(identity + ".crt"), Path.of(identity + ".key"), tls.resolve("ca.crt")),
                    Duration.ofSeconds(30));
            banks.put(
                    ispb,
                    new SimulatedBank(
                            ispb,
                            client,
                            behaviour,
                            metrics,
                            number(options, "return-rate", 0),
                            new FraudDesk.Med(
                                    number(options, "report-rate", 0), number(options, "report-accept", 0.9))));
        }
        HttpServer control = control((int) number(options, "control-port", 8090), banks, metrics);
        banks.values().forEach(SimulatedBank::start);
        log.info(
                "bank simulator started: {} banks {} answering {} at {} ({}), control on 127.0.0.1:{}",
                banks.size(),
                banks.keySet(),
                switchUris,
                behaviour,
                "accept/refuse/none",
                control.getAddress().getPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            banks.values().forEach(SimulatedBank::stop);
            control.stop(0);
            stopped.countDown();
        }));
        stopped.await();
    }

    static HttpServer control(int port, Map<String, SimulatedBank> banks, Metrics metrics) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        banks.values()
                .forEach(bank -> metrics.gauge("pagora.simulator.answers.waiting", bank.ispb(), bank::waitingAnswers));
        server.createContext("/metrics", exchange -> reply(exchange, 200, metrics.scrape()));
        server.createContext("/banks", exchange -> {
            String[] path = exchange.getRequestURI().getPath().split("/");
            if (path.length == 2 && exchange.getRequestMethod().equals("GET")) {
                StringBuilder text = new StringBuilder();
                banks.values()
                        .forEach(bank -> text.append(bank.ispb())
                                .append(' ')
                                .append(bank.behaviour().mode())
                                .append(' ')
                                .append(bank.waitingAnswers())
                                .append('\n'));
                reply(exchange, 200, text.toString());
                return;
            }
            SimulatedBank bank = path.length == 4 ? banks.get(path[2]) : null;
            if (bank == null || !exchange.getRequestMethod().equals("POST")) {
                reply(
                        exchange,
                        404,
                        "POST /banks/{ispb}/up|down|slow?ms=N|returns?share=S for one of " + banks.keySet() + "\n");
                return;
            }
            String query = exchange.getRequestURI().getQuery();
            if (path[3].equals("returns")) {
                returns(exchange, bank, query);
                return;
            }
            long slowMs = query != null && query.startsWith("ms=") ? Long.parseLong(query.substring(3)) : 1000;
            switch (path[3]) {
                case "up" -> bank.behave(Behaviour.Mode.UP, 0);
                case "down" -> bank.behave(Behaviour.Mode.DOWN, 0);
                case "slow" -> bank.behave(Behaviour.Mode.SLOW, slowMs);
                default -> {
                    reply(exchange, 404, "up, down, slow or returns\n");
                    return;
                }
            }
            reply(exchange, 200, bank.ispb() + " " + bank.behaviour().mode() + "\n");
        });
        server.start();
        return server;
    }

    /** {@code POST /banks/{ispb}/returns?share=S}: the share of the payments settled to the bank it returns from now. */
    private static void returns(HttpExchange exchange, SimulatedBank bank, String query) throws IOException {
        double share = Double.NaN;
        if (query != null && query.startsWith("share=")) {
            try {
                share = Double.parseDouble(query.substring("share=".length()));
            } catch (NumberFormatException notANumber) {
                // answered below
            }
        }
        if (!(share >= 0 && share <= 1)) {
            reply(exchange, 400, "returns?share=S with S in [0, 1], not " + query + "\n");
            return;
        }
        bank.returnShare(share);
        reply(exchange, 200, bank.ispb() + " returns " + bank.returnShare() + "\n");
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        reply(exchange, status, "text/plain; charset=utf-8", body);
    }

    /** Answers with {@code body}, UTF-8, and closes the exchange. */
    static void reply(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("options are --name=value: " + arg);
            }
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private static double number(Map<String, String> options, String name, double fallback) {
        String value = options.get(name);
        return value == null ? fallback : Double.parseDouble(value);
    }
}
