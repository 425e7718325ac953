package io.pagora.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The participants' side of the switch in this JVM (the JDK's HttpServer on loopback, plain HTTP): the first pull
 * hands out the messages it was given, later pulls those given {@link #later} or else nothing new (204), and every answering call and return
 * request is kept. Each answer's result comes from {@code verdicts}, given its payment id: a state
 * ({@code SETTLED}) or {@code problem:<slug>}.
 */
final class FakeSwitch implements AutoCloseable {

    static final String BANK = "10002222";

    private final HttpServer server;
    private static final Pattern ANSWER = Pattern.compile("\\{\"paymentId\":\"([0-9a-f]{32})\"[^}]*}");

    private final BlockingQueue<String> answerCalls = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<String> returnRequests = new CopyOnWriteArrayList<>();
    private final List<String> medRequests = new CopyOnWriteArrayList<>();
    private volatile String messages = "{\"messages\":[]}";
    private final BlockingQueue<String> laterMessages = new LinkedBlockingQueue<>();
    private volatile Function<String, String> verdicts = paymentId -> "SETTLED";
    private volatile int answerStatus = 200;

    FakeSwitch() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        String stream = "/participants/" + BANK + "/stream/";
        server.createContext(stream + "start", exchange -> {
            exchange.getResponseHeaders().add("PI-Pull-Next", stream + "pull/000000000000000000000001.1");
            reply(exchange, 200, messages);
        });
        server.createContext(stream + "pull/", exchange -> {
            sleep(50);
            exchange.getResponseHeaders().add("PI-Pull-Next", stream + "pull/000000000000000000000001.2");
            String later = laterMessages.poll();
            if (later != null) {
                reply(exchange, 200, later);
                return;
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/participants/" + BANK + "/answers", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            answerCalls.add(body);
            reply(exchange, answerStatus, answerStatus == 200 ? results(body) : "{}");
        });
        server.createContext("/payments/", exchange -> {
            returnRequests.add(exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Idempotency-Key") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            reply(exchange, 201, "{}");
        });
        server.createContext("/infraction-reports", exchange -> {
            medRequests.add(exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Idempotency-Key") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            reply(exchange, exchange.getRequestURI().getPath().endsWith("/analysis") ? 200 : 201, "{}");
        });
        server.start();
    }

    /** The infraction reports filed and analysed: path, Idempotency-Key and body of each call. */
    List<String> medRequests() {
        return medRequests;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The messages of the first pull, as the body of a 200 ({@code {"messages":[…]}}). */
    FakeSwitch messages(String body) {
        this.messages = body;
        return this;
    }

    /** Messages for a later pull (the next one after this call), once. */
    FakeSwitch later(String body) {
        laterMessages.add(body);
        return this;
    }

    FakeSwitch verdicts(Function<String, String> verdicts) {
        this.verdicts = verdicts;
        return this;
    }

    FakeSwitch answerStatus(int status) {
        this.answerStatus = status;
        return this;
    }

    /** The bodies of the answering calls, as sent. */
    BlockingQueue<String> answerCalls() {
        return answerCalls;
    }

    /** Every answer of every call, one JSON object each ({@code {"paymentId":…,"decision":…}}), in order. */
    BlockingQueue<String> answers() {
        return answers;
    }

    private String results(String body) {
        StringBuilder results = new StringBuilder("{\"results\":[");
        Matcher answer = ANSWER.matcher(body);
        for (int i = 0; answer.find(); i++) {
            answers.add(answer.group());
            String verdict = verdicts.apply(answer.group(1));
            results.append(i == 0 ? "" : ",")
                    .append("{\"index\":")
                    .append(i)
                    .append(",\"paymentId\":\"")
                    .append(answer.group(1))
                    .append(
                            verdict.startsWith("problem:")
                                    ? "\",\"problem\":{\"type\":\"https://pagora.io/problems/" + verdict.substring(8)
                                            + "\",\"status\":503}}"
                                    : "\",\"status\":\"" + verdict + "\"}");
        }
        return results.append("]}").toString();
    }

    List<String> returnRequests() {
        return returnRequests;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        BankSimulator.reply(exchange, status, "application/json", body);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
