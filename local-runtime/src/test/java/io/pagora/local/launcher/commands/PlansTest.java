package io.pagora.local.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.local.launcher.Certs;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.TemporaryRepository;
import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.ServiceProcesses;
import io.pagora.local.launcher.platform.TigerBeetleReplicas;
import io.pagora.local.launcher.platform.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** What the bench's and the fault catalogue's command lines mean, and the settings their platforms run with. */
class PlansTest {

    private final Settings defaults = Settings.fromEnvironment(Map.of());

    @Test
    void the_bench_options_are_handed_to_the_bench_in_its_own_names() {
        BenchRun.Plan plan = BenchRun.plan(
                List.of("--rate=500", "--warmup=30", "--window=60", "--find-max", "--ledger=postgresql"),
                "tigerbeetle");

        assertThat(plan.ledgers()).containsExactly("postgresql");
        assertThat(plan.benchOptions())
                .containsExactly("--rate=500", "--warmup-seconds=30", "--window-seconds=60", "--find-max=true");
        assertThat(plan.overload()).isFalse();
    }

    @Test
    void the_overload_run_floods_at_twice_the_rate_unless_told_otherwise() {
        assertThat(BenchRun.plan(List.of("--overload"), "postgresql").benchOptions())
                .containsExactly("--overload-factor=2");
        assertThat(BenchRun.plan(List.of("--overload-factor=3"), "postgresql").benchOptions())
                .containsExactly("--overload-factor=3");
    }

    @Test
    void a_bench_option_it_does_not_know_is_refused() {
        assertThatThrownBy(() -> BenchRun.plan(List.of("--rates=500"), "postgresql"))
                .hasMessageContaining("--rates=500");
        assertThatThrownBy(() -> BenchRun.plan(List.of("--ledger=oracle"), "postgresql"))
                .hasMessageContaining("oracle");
        assertThatThrownBy(() -> BenchRun.requireTigerBeetle(List.of("tigerbeetle", "postgresql"), defaults))
                .hasMessageContaining("TIGERBEETLE_BIN");
    }

    @Test
    void a_bench_platform_is_funded_for_the_whole_run_and_its_bank_always_answers() {
        Settings bench = BenchRun.benchSettings(defaults.with("TIGERBEETLE_BIN", "/tb"), "postgresql", false);

        assertThat(bench.share("BANK_ACCEPT_RATE")).isEqualTo(1.0);
        assertThat(bench.share("BANK_NO_ANSWER_RATE")).isZero();
        assertThat(bench.number("LAST_RESERVE_FUNDING")).isEqualTo(bench.number("RESERVE_FUNDING"));
        assertThat(bench.integer("POOR_CUSTOMERS")).isZero();
        assertThat(bench.optional("TIGERBEETLE_BIN")).as("the PostgreSQL run").isEmpty();
    }

    @Test
    void both_ledgers_are_compared_side_by_side() {
        JsonMapper json = JsonMapper.builder().build();
        String table = BenchRun.compare(
                json.readTree("{\"settled_per_s\":1000,\"cpu_us_per_payment\":100,\"valid\":true,"
                        + "\"platform_to_ledger_cpu_ratio\":10.0,"
                        + "\"cpu_us_per_payment_by_component\":{\"tigerbeetle\":10},"
                        + "\"cpu_share_by_component\":{\"tigerbeetle\":10.0}}"),
                json.readTree("{\"settled_per_s\":500,\"cpu_us_per_payment\":300,\"valid\":false,"
                        + "\"platform_to_ledger_cpu_ratio\":null,"
                        + "\"cpu_us_per_payment_by_component\":{\"postgresql\":200},"
                        + "\"cpu_share_by_component\":{\"postgresql\":66.7}}"));

        assertThat(table)
                .contains("TigerBeetle vs PostgreSQL")
                .containsPattern("settled/s +1000\\.0 +500\\.0 +0\\.50")
                .containsPattern("CPU µs/payment +100\\.0 +300\\.0 +3\\.00")
                .containsPattern("platform ÷ TigerBeetle +10\\.00× +–")
                .containsPattern("tigerbeetle +10\\.0 +0\\.0 +share of the platform's CPU +10\\.0 % +0\\.0 %")
                .containsPattern("postgresql +0\\.0 +200\\.0 +share of the platform's CPU +0\\.0 % +66\\.7 %")
                .contains("valid: TigerBeetle true, PostgreSQL false");
    }

    @Test
    void chaos_runs_the_scenarios_named_or_all_of_them() {
        assertThat(Chaos.plan(List.of("kill-reporting", "poison"), "postgresql").scenarios())
                .containsExactly("kill-reporting", "poison");
        assertThat(Chaos.plan(List.of("all", "--ledger=both"), "postgresql"))
                .satisfies(plan -> assertThat(plan.scenarios()).hasSize(10))
                .satisfies(plan -> assertThat(plan.ledgers()).containsExactly("tigerbeetle", "postgresql"));
        assertThatThrownBy(() -> Chaos.plan(List.of(), "postgresql")).hasMessageContaining("needs a scenario");
        assertThatThrownBy(() -> Chaos.plan(List.of("kill-everything"), "postgresql"))
                .hasMessageContaining("unknown chaos scenario 'kill-everything'");
        assertThatThrownBy(() -> Chaos.plan(List.of("--fast"), "postgresql")).hasMessageContaining("--fast");
    }

    @Test
    void the_kafka_outage_lasts_its_setting_plus_the_restart() {
        assertThat(Chaos.faultSeconds("kafka-outage", defaults)).isEqualTo(60);
        assertThat(Chaos.faultSeconds("kafka-outage", defaults.with("CHAOS_KAFKA_OUTAGE_SECONDS", "50")))
                .isEqualTo(70);
        assertThat(Chaos.faultSeconds("kill-clearing-twice", defaults)).isEqualTo(75);
    }

    @Test
    void a_chaos_platform_shares_r$_80_million_among_its_customers_and_runs_a_short_pending_timeout() {
        Settings chaos = Chaos.chaosSettings(defaults, "postgresql");

        assertThat(chaos.number("CUSTOMER_FUNDING") * 4 * 50).isEqualTo(8_000_000_000L);
        assertThat(chaos.text("PENDING_TIMEOUT")).isEqualTo("2s");
        assertThat(chaos.text("RECONCILIATION_FINAL_WITHIN")).isEqualTo("20s");
        assertThat(chaos.number("RESERVE_FUNDING")).isEqualTo(5_000_000_000L);
    }

    @Test
    void the_seeded_banks_follow_one_formula() {
        assertThat(Settings.seededIspbs(4)).containsExactly(10001111L, 10002222L, 10003333L, 10004444L);
        assertThat(Certs.bankPrincipal(1)).isEqualTo("ispb-00000001");
        assertThatThrownBy(() -> Certs.bankPrincipal(100_000_000L)).hasMessageContaining("up to 8 digits");
    }

    @Test
    void the_demos_k6_makes_the_vus_its_p99_threshold_needs_up_front() {
        assertThat(Demo.preallocatedVus(200, 5000, 1000)).isEqualTo(1000);
        assertThat(Demo.preallocatedVus(100, 5000, 1000)).isEqualTo(500);
        assertThat(Demo.preallocatedVus(200, 5000, 300))
                .as("never above K6_MAX_VUS")
                .isEqualTo(300);
        assertThat(Demo.preallocatedVus(1, 10, 1000)).isEqualTo(1);
    }

    @Test
    void a_tigerbeetle_older_than_the_pinned_server_is_refused() {
        TigerBeetleReplicas.checkTigerBeetleVersion("TigerBeetle version 0.16.78+c3d9b09");
        TigerBeetleReplicas.checkTigerBeetleVersion("TigerBeetle version 0.17.0");
        assertThatThrownBy(() -> TigerBeetleReplicas.checkTigerBeetleVersion("TigerBeetle version 0.16.30"))
                .hasMessageContaining("older than the pinned 0.16.78");
        assertThatThrownBy(() -> TigerBeetleReplicas.checkTigerBeetleVersion("garbage"))
                .hasMessageContaining("does not say its version");
    }

    @Test
    void each_service_is_started_with_the_settings_it_reads() {
        Platform platform = new Platform(
                TemporaryRepository.create(),
                Settings.fromEnvironment(Map.of("PENDING_TIMEOUT", "3s", "PARTICIPANT_BURST", "3750")));

        assertThat(arguments(platform, "clearing-service", "postgresql"))
                .contains(
                        "--pagora.clearing.pending-timeout=3s",
                        "--pagora.ledger.backend=postgresql",
                        "--server.port=8081")
                .noneMatch(argument -> argument.startsWith("--pagora.web."));
        assertThat(arguments(platform, "payment-api", "tigerbeetle"))
                .contains(
                        "--pagora.payments.participant-limits.burst=3750",
                        "--pagora.ledger.backend=tigerbeetle",
                        "--pagora.payments.status-base-url=https://127.0.0.1:8082",
                        "--pagora.web.connections-per-participant-max=800");
        assertThat(arguments(platform, "reporting-service", "postgresql"))
                .contains("--pagora.reporting.reconciliation.enabled=true");
    }

    @Test
    void payment_api_leases_pulled_messages_well_inside_the_time_a_bank_has_to_answer() {
        Platform local = new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of()));
        assertThat(arguments(local, "payment-api", "postgresql"))
                .as("a third of the 5 s pending timeout")
                .contains("--pagora.participants.answer-window=5s", "--pagora.participants.lease-timeout=1666ms");
        Platform chaos =
                new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of("PENDING_TIMEOUT", "2s")));
        assertThat(arguments(chaos, "payment-api", "postgresql"))
                .as("never below payment-api's 1 s, half of 2 s")
                .contains("--pagora.participants.answer-window=2s", "--pagora.participants.lease-timeout=1000ms");
    }

    @Test
    void the_scaled_platform_runs_two_instances_of_each_service_on_three_brokers_and_three_replicas() {
        Platform platform =
                new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of("PAGORA_SCALE", "1")));
        String staticMember = "--spring.kafka.consumer.properties.group.instance.id=";

        assertThat(platform.services.instancesOf("clearing-service"))
                .extracting(Topology.Instance::name, Topology.Instance::port)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("clearing-service", 8081),
                        org.assertj.core.groups.Tuple.tuple("clearing-service-2", 8181));
        List<String> second = platform.services.serviceArguments(
                "clearing-service",
                platform.services.instancesOf("clearing-service").get(1),
                "tigerbeetle");
        assertThat(second)
                .contains(
                        "--server.port=8181",
                        "--spring.kafka.bootstrap-servers=127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096",
                        "--pagora.topics.replication-factor=3",
                        "--pagora.topics.min-insync-replicas=2",
                        "--pagora.ledger.tigerbeetle.addresses=127.0.0.1:3000,127.0.0.1:3001,127.0.0.1:3002",
                        staticMember + "clearing-service-2-local");
        assertThat(arguments(platform, "clearing-service", "tigerbeetle"))
                .as("each instance its own member name")
                .contains(staticMember + "clearing-service-local");
        assertThat(Topology.SCALED.kafkaVoters()).isEqualTo("1@127.0.0.1:9093,2@127.0.0.1:9095,3@127.0.0.1:9097");
        assertThat(platform.serviceUrls("payment-api")).isEqualTo("https://127.0.0.1:8080,https://127.0.0.1:8180");
    }

    @Test
    void the_reconciliation_lease_holder_is_the_instance_whose_leader_gauge_is_one() {
        String holder = "# HELP pagora_reconciliation_leader 1 while this instance holds the lease\n"
                + "pagora_reconciliation_leader{application=\"reporting-service\"} 1.0\n";
        assertThat(ServiceProcesses.reconciliationLeader(holder)).isTrue();
        assertThat(ServiceProcesses.reconciliationLeader(holder.replace("} 1.0", "} 0.0")))
                .isFalse();
        assertThat(ServiceProcesses.reconciliationLeader("pagora_reconciliation_lag_seconds 1.0\n"))
                .as("no gauge: not the holder")
                .isFalse();
    }

    @Test
    void one_of_everything_unless_scaled() {
        Platform platform = new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of()));

        assertThat(platform.services.instancesOf("payment-api")).hasSize(1);
        assertThat(arguments(platform, "payment-api", "tigerbeetle"))
                .contains(
                        "--spring.kafka.bootstrap-servers=127.0.0.1:9092", "--pagora.topics.replication-factor=1",
                        "--pagora.topics.min-insync-replicas=1",
                                "--pagora.ledger.tigerbeetle.addresses=127.0.0.1:3000");
    }

    private static List<String> arguments(Platform platform, String service, String backend) {
        return platform.services.serviceArguments(
                service, platform.services.instancesOf(service).getFirst(), backend);
    }

    @Test
    void the_services_that_consume_in_groups_rejoin_them_as_static_members_after_a_kill() {
        Platform platform = new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of()));
        String staticMember = "--spring.kafka.consumer.properties.group.instance.id=";

        assertThat(arguments(platform, "clearing-service", "tigerbeetle"))
                .contains(staticMember + "clearing-service-local");
        assertThat(arguments(platform, "reporting-service", "tigerbeetle"))
                .contains(staticMember + "reporting-service-local");
        assertThat(arguments(platform, "payment-api", "tigerbeetle"))
                .as("payment-api reads without a consumer group: nothing to rejoin")
                .noneMatch(argument -> argument.startsWith(staticMember));
    }
}
