package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.local.cli.Options;
import org.junit.jupiter.api.Test;

/** chaos-check reads the command line the launcher's chaos command gives it (launcher.commands.Chaos#scenario). */
class ChaosCheckOptionsTest {

    /** The options Chaos#scenario passes, with the values of a run on the PostgreSQL ledger. */
    static final String[] LAUNCHERS = {
        "--scenario=kill-clearing-twice",
        "--answers-dir=/tmp/chaos",
        "--accounts=/tmp/accounts.tsv",
        "--fault-start-epoch-ms=1000",
        "--fault-end-epoch-ms=2000",
        "--load-done-file=/tmp/chaos/kill-clearing-twice.done",
        "--final-wait-seconds=180",
        "--offered-payments=18000",
        "--before-seconds=15",
        "--bootstrap-servers=127.0.0.1:9092",
        "--jdbc-url=jdbc:postgresql://127.0.0.1:5432/pagora",
        "--db-user=pagora",
        "--db-password=pagora",
        "--ledger-backend=postgresql",
        "--tigerbeetle-addresses=3000"
    };

    @Test
    void theLaunchersCommandLineParses() {
        ChaosCheckOptions options = ChaosCheckOptions.parse(LAUNCHERS);

        assertThat(options.scenario()).isEqualTo("kill-clearing-twice");
        assertThat(options.offeredPayments()).isEqualTo(18_000);
    }

    @Test
    void withoutWhatTheLoadOfferedItRefusesToJudge() {
        String[] without = java.util.Arrays.stream(LAUNCHERS)
                .filter(option -> !option.startsWith("--offered-payments="))
                .toArray(String[]::new);

        assertThatThrownBy(() -> ChaosCheckOptions.parse(without))
                .isInstanceOf(Options.Refused.class)
                .hasMessageContaining("--offered-payments");
    }
}
