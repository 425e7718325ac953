package io.pagora.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.pagora.simulator.Behaviour.Mode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The control port: the metrics Prometheus scrapes, the banks' modes, and switching one bank's mode at runtime. */
class ControlPortTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private final Metrics metrics = new Metrics();
    private final Map<String, SimulatedBank> banks = new LinkedHashMap<>();
    private final HttpServer control;

    ControlPortTest() throws Exception {
        for (String ispb : new String[] {"10001111", "10002222"}) {
            SwitchClient unused = new SwitchClient(
                    URI.create("http://127.0.0.1:9"), ispb, SSLContext.getDefault(), Duration.ofSeconds(1));
            banks.put(ispb, new SimulatedBank(ispb, unused, new Behaviour(0.9, 0.05, 0, 0, Mode.UP, 0), metrics));
        }
        control = BankSimulator.control(0, banks, metrics);
    }

    @AfterEach
    void stop() {
        control.stop(0);
    }

    @Test
    void metricsHoldEveryBanksAnswersWaitingAndItsCounters() throws Exception {
        metrics.count("pagora.simulator.instructions", "10001111", "decision", "ACCEPT");

        HttpResponse<String> response = call("GET", "/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.body())
                .contains(
                        "pagora_simulator_answers_waiting{bank=\"10001111\"} 0.0\n",
                        "pagora_simulator_answers_waiting{bank=\"10002222\"} 0.0\n",
                        "pagora_simulator_instructions_total{bank=\"10001111\",decision=\"ACCEPT\"} 1.0\n");
    }

    @Test
    void aBankIsTakenDownSlowedAndBroughtUpAgain() throws Exception {
        assertThat(call("POST", "/banks/10002222/down").body()).isEqualTo("10002222 DOWN\n");
        assertThat(call("GET", "/banks").body()).isEqualTo("10001111 UP 0\n10002222 DOWN 0\n");

        assertThat(call("POST", "/banks/10002222/slow?ms=250").body()).isEqualTo("10002222 SLOW\n");
        assertThat(banks.get("10002222").behaviour().slowMs()).isEqualTo(250);

        assertThat(call("POST", "/banks/10002222/up").body()).isEqualTo("10002222 UP\n");
        assertThat(banks.get("10002222").behaviour().mode()).isEqualTo(Mode.UP);
    }

    @Test
    void aBanksReturnShareIsChangedAndABadShareIsRefused() throws Exception {
        assertThat(call("POST", "/banks/10002222/returns?share=0.25").body()).isEqualTo("10002222 returns 0.25\n");
        assertThat(banks.get("10002222").returnShare()).isEqualTo(0.25);
        assertThat(call("POST", "/banks/10002222/returns?share=0").body()).isEqualTo("10002222 returns 0.0\n");
        assertThat(banks.get("10002222").returnShare()).isZero();

        for (String bad : new String[] {"share=1.5", "share=-0.1", "share=NaN", "share=x", "ms=3", ""}) {
            assertThat(call("POST", "/banks/10001111/returns?" + bad).statusCode())
                    .as(bad)
                    .isEqualTo(400);
        }
        assertThat(call("POST", "/banks/10001111/returns").statusCode()).isEqualTo(400);
        assertThat(banks.get("10001111").returnShare()).isZero();
        assertThat(banks.get("10002222").behaviour().mode()).isEqualTo(Mode.UP);
    }

    @Test
    void anUnknownBankOrModeIsNotFound() throws Exception {
        assertThat(call("POST", "/banks/99999999/down").statusCode()).isEqualTo(404);
        assertThat(call("POST", "/banks/10001111/sideways").statusCode()).isEqualTo(404);
        assertThat(call("GET", "/banks/10001111/down").statusCode()).isEqualTo(404);
        assertThat(banks.get("10001111").behaviour().mode()).isEqualTo(Mode.UP);
    }

    private HttpResponse<String> call(String method, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + control.getAddress().getPort() + path);
        return http.send(
                HttpRequest.newBuilder(uri)
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
