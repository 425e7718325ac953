package io.pagora.reporting.adapter.kafka;

import io.pagora.events.DeadLetterConvention;
import io.pagora.events.TopicDurability;
import io.pagora.events.Topics;
import io.pagora.reporting.ReportingProperties;
import io.pagora.service.config.TopicsProperties;
import java.sql.SQLTransientException;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Kafka for the projection: safe client settings enforced over whatever the properties say, a batch
 * listener container that commits offsets after the listener returned (after the database commit), and
 * dead-letter topics for what cannot be projected.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TopicsProperties.class)
public class KafkaConfiguration {

    /** Settings the projection's correctness depends on: not left to configuration. */
    @Bean
    DefaultKafkaConsumerFactoryCustomizer safeConsumerSettings() {
        return factory -> factory.updateConfigs(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                // Bytes in, decoding in the listener: a bad record can never fail inside the consumer's poll.
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
    }

    /** The dead-letter producer: acknowledged by every in-sync replica, idempotent. */
    @Bean
    DefaultKafkaProducerFactoryCustomizer safeProducerSettings() {
        return factory -> factory.updateConfigs(Map.of(
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "pagora.reporting.topics.create", matchIfMissing = true)
    KafkaAdmin.NewTopics paymentTopics(ReportingProperties properties, TopicsProperties topics) {
        int partitions = properties.topics().partitions();
        TopicDurability durability = topics.durability();
        return new KafkaAdmin.NewTopics(
                topic(Topics.PAYMENTS_REQUESTED, partitions, durability),
                topic(Topics.PAYMENT_OUTCOMES, partitions, durability),
                topic(Topics.PAYMENTS_REQUESTED_DEAD_LETTER, partitions, durability),
                topic(Topics.PAYMENT_OUTCOMES_DEAD_LETTER, partitions, durability));
    }

    private static NewTopic topic(String name, int partitions, TopicDurability durability) {
        return new NewTopic(name, partitions, (short) durability.replicationFactor())
                .configs(durability.topicConfigs());
    }

    @Bean
    DeadLetterPublishingRecoverer deadLetters(KafkaOperations<?, ?> kafka) {
        // Partition -1: the producer picks one by key, so the dead-letter topic may have any partition count.
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(
                kafka, (record, exception) -> new TopicPartition(DeadLetterConvention.topicOf(record.topic()), -1));
        recoverer.setHeadersFunction((record, exception) -> new RecordHeaders(new RecordHeader[] {
            new RecordHeader(DeadLetterConvention.REASON_HEADER, DeadLetterConvention.reasonHeader(reason(exception)))
        }));
        return recoverer;
    }

    @Bean
    DefaultErrorHandler projectionErrorHandler(
            DeadLetterPublishingRecoverer deadLetters, ReportingProperties properties) {
        ReportingProperties.Projection settings = properties.projection();
        ExponentialBackOff bounded = new ExponentialBackOff(200, 2.0);
        bounded.setMaxAttempts(settings.failedPollAttempts() - 1);
        DefaultErrorHandler handler = new DefaultErrorHandler(deadLetters, bounded);
        // The listener commits what it wrote, and no further than a request it holds: the handler commits nothing.
        handler.setAckAfterHandle(false);
        handler.setBackOffFunction((record, exception) -> {
            if (!isTransient(exception)) {
                return null;
            }
            ExponentialBackOff unbounded = new ExponentialBackOff(500, 2.0);
            unbounded.setMaxInterval(settings.transientRetryMaxInterval().toMillis());
            return unbounded;
        });
        return handler;
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> projectionContainerFactory(
            ConsumerFactory<?, ?> consumerFactory,
            DefaultErrorHandler projectionErrorHandler,
            RequestHolds holds,
            ReportingProperties properties) {
        @SuppressWarnings("unchecked")
        ConsumerFactory<byte[], byte[]> bytes = (ConsumerFactory<byte[], byte[]>) consumerFactory;
        ConcurrentKafkaListenerContainerFactory<byte[], byte[]> factory =
                new ConcurrentKafkaListenerContainerFactory<>();
        factory.setConsumerFactory(bytes);
        factory.setBatchListener(true);
        factory.setConcurrency(properties.projection().concurrency());
        factory.setAutoStartup(properties.projection().autoStartup());
        factory.setCommonErrorHandler(projectionErrorHandler);
        // MANUAL, never acknowledged: the listener commits (synchronously, after the database transaction committed)
        // the offsets its request hold allows, which stop at the oldest request held (RequestHold). A crash in between
        // redelivers from there: the projection is idempotent.
        factory.getContainerProperties().setAckMode(AckMode.MANUAL);
        factory.getContainerProperties().setSyncCommits(true);
        factory.getContainerProperties().setConsumerRebalanceListener(holds);
        // A consumer given nothing for this long writes the requests it held long enough (ProjectionListener.onIdle).
        factory.getContainerProperties()
                .setIdleEventInterval(Math.max(
                        properties.projection().window().toMillis(),
                        properties.projection().requestHold().toMillis() / 2));
        // A poll is a time window of events, so that a payment's request and outcome meet in one transaction. Set on
        // each container: the factory's own consumer properties give way to the listener annotation's (none).
        Properties window = ProjectionWindow.consumerProperties(
                properties.projection().window(), properties.projection().windowRecordsMax());
        factory.setContainerCustomizer(
                container -> container.getContainerProperties().setKafkaConsumerProperties(window));
        return factory;
    }

    /** The database or Kafka is unreachable: worth retrying until it is back. */
    static boolean isTransient(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof TransientDataAccessException
                    || cause instanceof RecoverableDataAccessException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof SQLTransientException
                    || cause instanceof RetriableException
                    || cause instanceof DeadLetterUnavailableException) {
                return true;
            }
            // read_only_sql_transaction: a primary that failed over to a replica, until it is writable again.
            if (cause instanceof java.sql.SQLException sql && "25006".equals(sql.getSQLState())) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** The first cause that says what is wrong with the record (or the root cause), cleaned and bounded as every dead letter's reason. */
    static String reason(Throwable exception) {
        Throwable cause = exception;
        while (cause.getCause() != null
                && cause.getCause() != cause
                && !(cause instanceof UnprojectableRecordException)) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return DeadLetterConvention.reason(message);
    }
}
