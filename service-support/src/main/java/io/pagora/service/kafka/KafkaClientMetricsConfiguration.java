package io.pagora.service.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.core.MicrometerProducerListener;

/**
 * The Kafka clients' own metrics in Micrometer — consumer lag ({@code kafka_consumer_fetch_manager_records_lag_max},
 * and per partition {@code …_records_lag}), fetch and send rates — through spring-kafka's
 * {@link MicrometerConsumerListener} and {@link MicrometerProducerListener} on every factory that applies Boot's
 * factory customizers (Boot's own, and the services' factories that take them). Imported by clearing and reporting.
 *
 * <p>This replaces Boot's {@code KafkaMetricsAutoConfiguration} (which the importing service excludes) for one reason:
 * Boot's binder looks for new client metrics every 60 s, and Kafka creates a partition's lag metric only once
 * the partition is assigned and fetched, so after a start or a rebalance the per-partition lag would be missing
 * for up to a minute. Here the binder looks every {@value #REFRESH_SECONDS} s, the scrape interval.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientMetricsConfiguration {

    static final int REFRESH_SECONDS = 5;

    /** One daemon thread for every client's metric refresh; stopped with the context. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService kafkaClientMetricsScheduler() {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kafka-client-metrics");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Bean
    DefaultKafkaConsumerFactoryCustomizer kafkaConsumerMetrics(
            MeterRegistry registry, ScheduledExecutorService kafkaClientMetricsScheduler) {
        return factory -> factory.addListener(new RefreshingConsumerListener<>(registry, kafkaClientMetricsScheduler));
    }

    @Bean
    DefaultKafkaProducerFactoryCustomizer kafkaProducerMetrics(MeterRegistry registry) {
        return factory -> factory.addListener(new MicrometerProducerListener<>(registry));
    }

    /** spring-kafka's listener, binding each consumer with a {@value #REFRESH_SECONDS} s refresh. */
    static final class RefreshingConsumerListener<K, V> extends MicrometerConsumerListener<K, V> {

        private final ScheduledExecutorService refresher;

        RefreshingConsumerListener(MeterRegistry registry, ScheduledExecutorService refresher) {
            super(registry);
            this.refresher = refresher;
        }

        @Override
        protected MeterBinder createClientMetrics(Consumer<K, V> consumer, List<Tag> tags) {
            return new KafkaClientMetrics(consumer, tags, refresher, Duration.ofSeconds(REFRESH_SECONDS));
        }
    }
}
