package io.pagora.payments.api.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.Topics;
import io.pagora.payments.api.adapter.jdbc.JdbcStreamPositions;
import io.pagora.payments.api.adapter.kafka.KafkaAnswerChannel;
import io.pagora.payments.api.adapter.kafka.KafkaMessageLog;
import io.pagora.payments.api.adapter.kafka.SharedMessageLog;
import io.pagora.payments.api.adapter.web.ParticipantController;
import io.pagora.payments.api.application.answers.ParticipantAnswers;
import io.pagora.payments.api.application.streams.ParticipantStreams;
import io.pagora.service.config.TopicsProperties;
import io.pagora.settlement.application.AccessRefusals;
import java.time.Clock;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

/** The participants' streams and answers (docs/participants.md). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ParticipantProperties.class)
public class ParticipantConfiguration {

    private static final Duration MESSAGES_READ_TIMEOUT = Duration.ofSeconds(5);

    /** The participant topics payment-api reads and writes, declared here too: whichever service starts first makes them. */
    @Bean
    KafkaAdmin.NewTopics participantTopics(TopicsProperties topics) {
        return new KafkaAdmin.NewTopics(
                Stream.of(Topics.PARTICIPANT_MESSAGES, Topics.PARTICIPANT_ANSWERS, Topics.PARTICIPANT_VERDICTS)
                        .map(name -> TopicBuilder.name(name)
                                .partitions(Topics.PARTITIONS)
                                .replicas(topics.durability().replicationFactor())
                                .configs(topics.durability().topicConfigs())
                                .build())
                        .toArray(NewTopic[]::new));
    }

    @Bean(destroyMethod = "close")
    KafkaMessageLog participantMessageLog(KafkaProperties kafka, ParticipantProperties properties) {
        return new KafkaMessageLog(kafka.buildConsumerProperties(), properties.readersMax(), MESSAGES_READ_TIMEOUT);
    }

    /** Each partition of the messages read once for every bank on it; a bank behind reads on its own. */
    @Bean(destroyMethod = "close")
    SharedMessageLog sharedMessageLog(KafkaProperties kafka, KafkaMessageLog participantMessageLog) {
        return new SharedMessageLog(kafka.buildConsumerProperties(), participantMessageLog, MESSAGES_READ_TIMEOUT);
    }

    @Bean(destroyMethod = "close")
    KafkaAnswerChannel answerChannel(
            KafkaTemplate<String, byte[]> kafka, KafkaProperties kafkaProperties, ParticipantProperties properties) {
        KafkaAnswerChannel channel =
                new KafkaAnswerChannel(kafka, kafkaProperties.buildConsumerProperties(), properties.waitingCallsMax());
        channel.start();
        return channel;
    }

    @Bean
    ParticipantStreams participantStreams(SharedMessageLog log, JdbcTemplate jdbc, ParticipantProperties properties) {
        return new ParticipantStreams(log, new JdbcStreamPositions(jdbc), properties.limits(), Clock.systemUTC());
    }

    @Bean
    ParticipantController participantController(
            ParticipantStreams streams,
            KafkaAnswerChannel channel,
            ParticipantProperties properties,
            MeterRegistry meters,
            AccessRefusals refusals) {
        return new ParticipantController(
                streams,
                new ParticipantAnswers(channel, properties.verdictTimeout()),
                properties.answersMax(),
                Math.toIntExact(properties.answersBodyMax().toBytes()),
                meters,
                refusals);
    }
}
