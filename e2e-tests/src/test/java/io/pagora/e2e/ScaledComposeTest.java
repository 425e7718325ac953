package io.pagora.e2e;

import static io.pagora.e2e.support.YamlFiles.map;
import static io.pagora.e2e.support.YamlFiles.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.YamlFiles;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.scale.yml describes the topology the launcher's {@code --scale} runs (docs/scale-out.md). No Docker
 * engine runs it here, so its file is read for what a wrong copy would break: every TigerBeetle replica formatted as
 * one of three and given the same three addresses the services are; three Kafka nodes of one cluster, each a voter;
 * topics replicated 3 times with min.insync.replicas 2; two instances of each service, each consumer with its own
 * static member name; the bank simulator on both payment-api instances.
 */
class ScaledComposeTest {

    final Map<String, Object> services =
            map(YamlFiles.load("docker-compose.scale.yml").get("services"));

    @Test
    void a_three_replica_tigerbeetle_cluster_whose_addresses_the_services_are_given() {
        List<String> replicas = names("tigerbeetle-");
        assertThat(replicas).containsExactly("tigerbeetle-0", "tigerbeetle-1", "tigerbeetle-2");
        String addresses = environment("payment-api-1").get("PAGORA_LEDGER_TIGERBEETLE_ADDRESSES");
        for (int replica = 0; replica < 3; replica++) {
            Map<String, Object> service = map(services.get("tigerbeetle-" + replica));
            String command = String.join(" ", strings(service.get("command")));
            assertThat(command).contains("--replica-count=3", "--replica=$${REPLICA}", "--addresses=" + addresses);
            assertThat(map(service.get("environment")).get("REPLICA")).isEqualTo(Integer.toString(replica));
            String ip = map(map(map(service.get("networks")).get("pagora")))
                    .get("ipv4_address")
                    .toString();
            assertThat(addresses.split(",")[replica]).isEqualTo(ip + ":3000");
        }
    }

    @Test
    void three_kafka_nodes_of_one_cluster_with_topics_replicated_three_times() {
        assertThat(names("kafka-")).containsExactly("kafka-1", "kafka-2", "kafka-3");
        List<Map<String, String>> nodes =
                names("kafka-").stream().map(this::environment).toList();
        assertThat(nodes.stream().map(node -> node.get("CLUSTER_ID")).distinct())
                .hasSize(1);
        assertThat(nodes.stream().map(node -> node.get("KAFKA_NODE_ID"))).containsExactly("1", "2", "3");
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.get("KAFKA_CONTROLLER_QUORUM_VOTERS"))
                    .isEqualTo("1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093");
            assertThat(node.get("KAFKA_DEFAULT_REPLICATION_FACTOR")).isEqualTo("3");
            assertThat(node.get("KAFKA_MIN_INSYNC_REPLICAS")).isEqualTo("2");
            assertThat(node.get("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR")).isEqualTo("3");
        });
    }

    @Test
    void two_instances_of_each_service_on_replicated_topics_each_consumer_its_own_member() {
        for (String service : List.of("payment-api", "clearing-service", "reporting-service")) {
            assertThat(names(service + "-")).containsExactly(service + "-1", service + "-2");
            for (String instance : names(service + "-")) {
                Map<String, String> environment = environment(instance);
                assertThat(environment)
                        .containsEntry("PAGORA_TOPICS_REPLICATION_FACTOR", "3")
                        .containsEntry("PAGORA_TOPICS_MIN_INSYNC_REPLICAS", "2")
                        .containsEntry("SPRING_KAFKA_BOOTSTRAP_SERVERS", "kafka-1:19092,kafka-2:19092,kafka-3:19092");
                if (!service.equals("payment-api")) {
                    assertThat(environment)
                            .containsEntry("SPRING_KAFKA_CONSUMER_PROPERTIES_GROUP_INSTANCE_ID", instance);
                }
            }
        }
        assertThat(String.join(" ", strings(map(services.get("bank-simulator")).get("command"))))
                .contains("--switch=https://payment-api-1:8080,https://payment-api-2:8080");
    }

    private List<String> names(String prefix) {
        return services.keySet().stream()
                .filter(name -> name.startsWith(prefix))
                .sorted()
                .toList();
    }

    private Map<String, String> environment(String service) {
        return map(map(services.get(service)).get("environment")).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> String.valueOf(entry.getValue())));
    }
}
