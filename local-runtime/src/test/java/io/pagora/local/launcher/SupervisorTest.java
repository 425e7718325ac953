package io.pagora.local.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Real processes (sh, sleep): started in a session of their own, found by their pid file, stopped, bounded. */
class SupervisorTest {

    private final Layout layout = TemporaryRepository.create();
    private final Supervisor supervisor = new Supervisor(layout);

    @Test
    void a_launched_process_is_found_by_its_pid_file_and_stopped_by_it() throws Exception {
        supervisor.launch("sleeper", List.of("sleep", "60"), Map.of(), true);

        assertThat(supervisor.alive("sleeper")).isTrue();
        long pid = supervisor.pid("sleeper").orElseThrow();
        assertThat(ProcessHandle.of(pid)).isPresent();

        supervisor.stop("sleeper", 5);

        assertThat(supervisor.alive("sleeper")).isFalse();
        assertThat(Files.exists(supervisor.pidFile("sleeper"))).isFalse();
    }

    @Test
    void a_process_that_ignores_sigterm_is_killed_after_its_grace() {
        supervisor.launch("stubborn", List.of("sh", "-c", "trap '' TERM; sleep 60"), Map.of(), true);
        Supervisor.waitUntil(() -> supervisor.logSince("stubborn", 0).contains("starting"), 5_000);

        supervisor.stop("stubborn", 1);

        assertThat(supervisor.alive("stubborn")).isFalse();
    }

    @Test
    void readiness_is_looked_for_in_this_runs_output_only() {
        Supervisor.Launched first =
                supervisor.launch("talker", List.of("sh", "-c", "echo ready; sleep 60"), Map.of(), true);
        supervisor.waitForLogLine("talker", first.logOffset(), "ready", 10);
        supervisor.stop("talker", 5);

        Supervisor.Launched second =
                supervisor.launch("talker", List.of("sh", "-c", "echo silent; sleep 60"), Map.of(), true);

        assertThatThrownBy(() -> supervisor.waitForLogLine("talker", second.logOffset(), "ready", 2))
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("did not say 'ready' within 2s");
        supervisor.stop("talker", 5);
    }

    @Test
    void a_process_that_dies_during_startup_is_reported_with_its_log() {
        Supervisor.Launched launched =
                supervisor.launch("crasher", List.of("sh", "-c", "echo boom; exit 3"), Map.of(), true);

        assertThatThrownBy(() -> supervisor.waitForLogLine("crasher", launched.logOffset(), "ready", 10))
                .hasMessageContaining("crasher exited during startup");
    }

    @Test
    void the_environment_given_reaches_the_process() {
        Supervisor.Launched launched = supervisor.launch(
                "printer",
                List.of("sh", "-c", "echo value=$PAGORA_TEST_VALUE; sleep 60"),
                Map.of("PAGORA_TEST_VALUE", "42"),
                true);

        supervisor.waitForLogLine("printer", launched.logOffset(), "value=42", 10);
        supervisor.stop("printer", 5);
    }

    @Test
    void a_port_held_by_another_process_is_refused() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(Layout.HOST))) {
            assertThat(Supervisor.portOpen(taken.getLocalPort())).isTrue();
            assertThatThrownBy(() -> Supervisor.requireFreePort("kafka", taken.getLocalPort()))
                    .hasMessageContaining("already in use");
        }
    }

    @Test
    void a_stop_of_what_never_ran_is_a_no_op() {
        supervisor.stop("nothing", 1);

        assertThat(supervisor.alive("nothing")).isFalse();
    }
}
