package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.local.load.LoadGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench tool's options record: its defaults, and the options the launcher's bench command hands it. */
class BenchOptionsTest {

    @TempDir
    Path tls;

    private String[] arguments(String... more) throws Exception {
        Files.writeString(tls.resolve("ca.crt"), "");
        String[] fixed = {
            "--accounts=/run/accounts.txt", "--out-dir=/run/bench", "--components=payment-api=42", "--tls-dir=" + tls
        };
        String[] all = new String[fixed.length + more.length];
        System.arraycopy(fixed, 0, all, 0, fixed.length);
        System.arraycopy(more, 0, all, fixed.length, more.length);
        return all;
    }

    @Test
    void left_out_options_take_the_bench_defaults() throws Exception {
        BenchOptions options = BenchOptions.parse(arguments());

        assertThat(options.settings())
                .isEqualTo(new Bench.Settings(
                        "postgresql",
                        LoadGenerator.Mode.BULK,
                        4000,
                        500,
                        60,
                        300,
                        180,
                        false,
                        1.25,
                        1.0,
                        Map.of("payment-api", 42L)));
        assertThat(options.overloadFactor()).isZero();
        assertThat(options.secondBankRatePerSecond()).isEqualTo(100);
        assertThat(options.inFlightMax()).isEqualTo(4096);
        assertThat(options.clockTicksPerSecond()).isEqualTo(100);
        assertThat(options.api()).hasToString("https://127.0.0.1:8080");
        assertThat(options.dataDirs()).isEmpty();
    }

    @Test
    void the_launchers_bench_options_are_the_tools_own() throws Exception {
        BenchOptions options = BenchOptions.parse(arguments(
                "--mode=single",
                "--rate=500",
                "--warmup-seconds=30",
                "--window-seconds=60",
                "--find-max=true",
                "--overload-factor=2",
                "--second-bank-rate=50",
                "--api-url=https://127.0.0.1:8080,https://127.0.0.1:8090"));

        assertThat(options.settings().mode()).isEqualTo(LoadGenerator.Mode.SINGLE);
        assertThat(options.settings().rate()).isEqualTo(500);
        assertThat(options.settings().warmupSeconds()).isEqualTo(30);
        assertThat(options.settings().windowSeconds()).isEqualTo(60);
        assertThat(options.settings().findMax()).isTrue();
        assertThat(options.overloadFactor()).isEqualTo(2);
        assertThat(options.secondBankRatePerSecond()).isEqualTo(50);
        assertThat(options.apis()).hasSize(2);
    }

    @Test
    void a_required_option_left_out_or_an_unknown_one_is_refused() throws Exception {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--out-dir=/x"}))
                .hasMessage("missing option --accounts=...");
        assertThatThrownBy(() -> BenchOptions.parse(arguments("--warmup=30")))
                .hasMessageStartingWith("unknown bench option: --warmup=30 (known: --accounts=... --out-dir=...");
    }
}
