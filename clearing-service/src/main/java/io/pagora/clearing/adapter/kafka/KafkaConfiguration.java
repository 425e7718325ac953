package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.TopicDurability;
import io.pagora.events.Topics;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.service.config.TopicsProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Kafka clients with their safety settings forced (whatever {@code spring.kafka.*} says), the two
 * batch listener container factories, the error handler, and the topics.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TopicsProperties.class)
public class KafkaConfiguration {

    private static final Logger log = LoggerFactory.getLogger(KafkaConfiguration.class);

    /** Named as Boot's default factory, so Boot does not create a second, unsafe one. */
    public static final String PAYMENTS_LISTENER_FACTORY = "kafkaListenerContainerFactory";

    public static final String EXPIRY_LISTENER_FACTORY = "expiryListenerContainerFactory";
    public static final String UNANSWERED_DEAD_LETTER = DeadLetterConvention.topicOf(Topics.CLEARING_UNANSWERED);

    /** Kafka's default; a poll's clearing takes seconds at most (ledger and publish deadlines are far below). */
    static final Duration MAX_POLL_INTERVAL = Duration.ofMinutes(5);
    /** Room, beyond the expiry wait, for the void request and the publication. */
    static final Duration EXPIRY_WORK_MARGIN = Duration.ofMinutes(2);

    @Bean
    public ProducerFactory<String, byte[]> producerFactory(
            KafkaProperties kafka, ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
        Map<String, Object> properties = new HashMap<>(kafka.buildProducerProperties());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        DefaultKafkaProducerFactory<String, byte[]> factory = new DefaultKafkaProducerFactory<>(properties);
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    @Bean
    public KafkaTemplate<String, byte[]> kafkaTemplate(ProducerFactory<String, byte[]> producerFactory) {
        return new KafkaTemplate<>(producerFactory);
    }

    @Bean
    public ConsumerFactory<String, byte[]> consumerFactory(
            KafkaProperties kafka,
            ClearingProperties clearing,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        return consumerFactory(kafka, clearing, MAX_POLL_INTERVAL, customizers);
    }

    @Bean(PAYMENTS_LISTENER_FACTORY)
    public ConcurrentKafkaListenerContainerFactory<String, byte[]> paymentsListenerFactory(
            ConsumerFactory<String, byte[]> consumerFactory,
            DefaultErrorHandler errorHandler,
            ClearingProperties clearing) {
        return batchFactory(consumerFactory, errorHandler, clearing);
    }

    /**
     * The expiry worker's consumers may hold a poll for a whole pending timeout, so their
     * {@code max.poll.interval.ms} is that plus a margin (never below Kafka's default).
     */
    @Bean(EXPIRY_LISTENER_FACTORY)
    public ConcurrentKafkaListenerContainerFactory<String, byte[]> expiryListenerFactory(
            KafkaProperties kafka,
            ClearingProperties clearing,
            DefaultErrorHandler errorHandler,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        Duration wait = clearing.pendingTimeout().plus(clearing.expiryMargin()).plus(EXPIRY_WORK_MARGIN);
        Duration interval = wait.compareTo(MAX_POLL_INTERVAL) > 0 ? wait : MAX_POLL_INTERVAL;
        return batchFactory(consumerFactory(kafka, clearing, interval, customizers), errorHandler, clearing);
    }

    /**
     * Retries a failed batch in place (the consumer is paused, the records kept). Transient failures
     * (ledger unavailable, Kafka not acknowledging) are retried forever with capped exponential
     * back-off: a ledger outage must never dead-letter good payments. Other failures rarely reach this
     * handler: the listeners isolate the records they fail on ({@link BadRecordIsolation}) and set
     * those aside alone. What still escapes (the dead-letter send itself failing for a non-transient
     * reason) is retried {@code pagora.clearing.retry.attempts} times, then the batch's records go to
     * {@code <topic>.dlt} with the reason, so the partition moves on; replaying them is safe because
     * clearing is idempotent.
     */
    @Bean
    public DefaultErrorHandler clearingErrorHandler(KafkaTemplate<String, byte[]> kafka, ClearingProperties clearing) {
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(
                kafka,
                (record, exception) ->
                        new TopicPartition(DeadLetterConvention.topicOf(record.topic()), record.partition()));
        recoverer.setHeadersFunction((record, exception) -> {
            RecordHeaders headers = new RecordHeaders();
            headers.add(
                    DeadLetterConvention.REASON_HEADER,
                    DeadLetterConvention.reasonHeader("failed after retries: " + rootCause(exception)));
            return headers;
        });
        ClearingProperties.Retry retry = clearing.retry();
        ExponentialBackOff bounded = backOff(retry);
        bounded.setMaxAttempts(retry.attempts());
        ExponentialBackOff forever = backOff(retry);
        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, bounded);
        handler.setBackOffFunction((record, exception) -> isTransient(exception) ? forever : null);
        // A batch that first failed transiently and then for another reason gets that reason's back-off.
        handler.setResetStateOnExceptionChange(true);
        handler.setRetryListeners(new RetryListener() {
            @Override
            public void failedDelivery(ConsumerRecord<?, ?> record, Exception exception, int deliveryAttempt) {
                log.warn("clearing a record failed (attempt {}), retrying: {}", deliveryAttempt, rootCause(exception));
            }

            @Override
            public void failedDelivery(ConsumerRecords<?, ?> records, Exception exception, int deliveryAttempt) {
                log.warn(
                        "clearing a batch of {} records failed (attempt {}, {}), retrying: {}",
                        records.count(),
                        deliveryAttempt,
                        isTransient(exception) ? "transient" : "not transient",
                        rootCause(exception));
            }

            @Override
            public void recovered(ConsumerRecords<?, ?> records, Exception exception) {
                log.error(
                        "dead-lettered a batch of {} records after retries: {}", records.count(), rootCause(exception));
            }
        });
        return handler;
    }

    /** Failures that say nothing about the records: the same batch will succeed once the infrastructure is back. */
    static boolean isTransient(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof LedgerUnavailableException
                    || cause instanceof KafkaSends.PublishFailedException
                    || cause instanceof RetriableException
                    || cause instanceof InterruptException
                    || cause instanceof ExpiryDeadlines.ShuttingDown) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    @Bean
    public KafkaAdmin.NewTopics clearingTopics(TopicsProperties topics) {
        TopicDurability replicationFactor = topics.durability();
        return new KafkaAdmin.NewTopics(
                topic(Topics.PAYMENTS_REQUESTED, replicationFactor),
                topic(Topics.PAYMENTS_REQUESTED_DEAD_LETTER, replicationFactor),
                topic(Topics.PAYMENT_OUTCOMES, replicationFactor),
                topic(Topics.CLEARING_UNANSWERED, replicationFactor),
                topic(UNANSWERED_DEAD_LETTER, replicationFactor),
                topic(Topics.PARTICIPANT_MESSAGES, replicationFactor),
                topic(Topics.PARTICIPANT_ANSWERS, replicationFactor),
                topic(DeadLetterConvention.topicOf(Topics.PARTICIPANT_ANSWERS), replicationFactor),
                topic(Topics.PARTICIPANT_VERDICTS, replicationFactor));
    }

    private static NewTopic topic(String name, TopicDurability durability) {
        // Dead-letter topics have the same partition count: a dead letter keeps its original partition.
        return TopicBuilder.name(name)
                .partitions(Topics.PARTITIONS)
                .replicas(durability.replicationFactor())
                .configs(durability.topicConfigs())
                .build();
    }

    private static ConsumerFactory<String, byte[]> consumerFactory(
            KafkaProperties kafka,
            ClearingProperties clearing,
            Duration maxPollInterval,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        Map<String, Object> properties = new HashMap<>(kafka.buildConsumerProperties());
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, clearing.maxPollRecords());
        properties.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, Math.toIntExact(maxPollInterval.toMillis()));
        DefaultKafkaConsumerFactory<String, byte[]> factory = new DefaultKafkaConsumerFactory<>(properties);
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    private static ConcurrentKafkaListenerContainerFactory<String, byte[]> batchFactory(
            ConsumerFactory<String, byte[]> consumerFactory,
            DefaultErrorHandler errorHandler,
            ClearingProperties clearing) {
        ConcurrentKafkaListenerContainerFactory<String, byte[]> factory =
                new ConcurrentKafkaListenerContainerFactory<>();
        factory.setConsumerFactory(consumerFactory);
        factory.setBatchListener(true);
        factory.setConcurrency(clearing.consumers());
        factory.setCommonErrorHandler(errorHandler);
        // Offsets are committed after the listener returns, i.e. after every output is acknowledged.
        factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.BATCH);
        return factory;
    }

    private static ExponentialBackOff backOff(ClearingProperties.Retry retry) {
        ExponentialBackOff backOff =
                new ExponentialBackOff(retry.initialInterval().toMillis(), 2.0);
        backOff.setMaxInterval(retry.maxInterval().toMillis());
        return backOff;
    }

    static String rootCause(Throwable exception) {
        Throwable root = exception;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }
}
