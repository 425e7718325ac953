package io.pagora.local.launcher.commands;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Asks a KRaft cluster which node leads its metadata quorum: the active controller (chaos kill-kafka-controller). */
public final class KafkaQuorum {

    private static final int REQUEST_TIMEOUT_MS = 10_000;
    /** Kafka refuses an API timeout below the request timeout. */
    private static final int API_TIMEOUT_MS = 15_000;

    private KafkaQuorum() {}

    public static int leaderId(String bootstrap) throws ExecutionException, InterruptedException, TimeoutException {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                REQUEST_TIMEOUT_MS,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                API_TIMEOUT_MS))) {
            return admin.describeMetadataQuorum()
                    .quorumInfo()
                    .get(API_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .leaderId();
        }
    }
}
