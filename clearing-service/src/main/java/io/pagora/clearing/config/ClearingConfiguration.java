package io.pagora.clearing.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.adapter.bank.SimulatedReceivingBank;
import io.pagora.clearing.adapter.kafka.KafkaInstructions;
import io.pagora.clearing.adapter.kafka.OutcomesFollower;
import io.pagora.clearing.adapter.ledger.PostgresExpirySweeper;
import io.pagora.clearing.adapter.metrics.AnswerTimes;
import io.pagora.clearing.adapter.metrics.InstructedWindow;
import io.pagora.clearing.adapter.metrics.MeteredOutcomePublisher;
import io.pagora.clearing.adapter.metrics.ObservedInstructions;
import io.pagora.clearing.adapter.metrics.ObservedReceivingBank;
import io.pagora.clearing.adapter.metrics.PendingChains;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.application.bank.SettlingWithTheBank;
import io.pagora.clearing.application.expiry.ExpiringInstructed;
import io.pagora.clearing.application.expiry.ExpiringUnanswered;
import io.pagora.clearing.application.expiry.ParkingForExpiry;
import io.pagora.clearing.application.participants.ApplyingAnswers;
import io.pagora.clearing.application.participants.InstructedEndToEndIds;
import io.pagora.clearing.application.participants.InstructingParticipants;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.service.ledger.LedgerConfiguration;
import io.pagora.service.ledger.LedgerHealthConfiguration;
import io.pagora.settlement.application.Settlement;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Wires the domain: settlement (on service-support's ledger bean), the shared pieces of the use cases, and one of two
 * wirings by {@code pagora.clearing.receiving-bank}: participants, or the in-process receiving bank.
 */
@Configuration(proxyBeanMethods = false)
@Import({LedgerConfiguration.class, LedgerHealthConfiguration.class})
public class ClearingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ClearingConfiguration.class);

    /** How long after the ledger expired a chain the pending-chains gauge still counts it. */
    static final Duration PENDING_CHAINS_GRACE = Duration.ofMinutes(1);
    /** At most this many pending chains are tracked (~15 MB at most): far above a pending timeout's worth of load. */
    static final int PENDING_CHAINS_MAX = 100_000;

    @Bean
    @ConditionalOnMissingBean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** The banks' answer times, read by the instructed window: an answer after half the pending timeout is late. */
    @Bean
    public AnswerTimes answerTimes(ClearingProperties properties) {
        return new AnswerTimes(properties.pendingTimeout().dividedBy(2), properties.pendingTimeout());
    }

    /**
     * The pending chains gauges. A chain is forgotten a minute after the ledger itself has expired it
     * (pending timeout plus the expiry margin): see {@link PendingChains}.
     */
    @Bean
    public PendingChains pendingChains(
            Clock clock, ClearingProperties properties, AnswerTimes answerTimes, MeterRegistry meters) {
        Duration forgetAfter =
                properties.pendingTimeout().plus(properties.expiryMargin()).plus(PENDING_CHAINS_GRACE);
        return new PendingChains(clock, forgetAfter, PENDING_CHAINS_MAX, meters, answerTimes);
    }

    /**
     * With participants, a poll is reserved in parts while at most a limit of instructed chains wait for their answers:
     * see {@link InstructedWindow}. The limit starts at {@value #INSTRUCTED_CHAINS_MIN} (a restarted process does not
     * reserve an outage's backlog at once) and follows the answers up to two polls' worth, never above what the answers
     * carried lately within half a pending timeout, growing at most once per round of answers; after halving it holds
     * for half a pending timeout, the time the chains reserved before answer late all the same.
     */
    static final int INSTRUCTED_CHAINS_MIN = 256;

    static final int INSTRUCTED_CHAINS_MAX = 2 * 2729;
    /** The window grows at most this often, however quickly the banks answer (a few of clearing's polls). */
    static final Duration INSTRUCTED_ROUND_MIN = Duration.ofMillis(250);
    /**
     * A poll of requests waits for room at most until its chains would be forgotten, and never above two minutes: the
     * requests consumers' {@code max.poll.interval.ms} is five, and the poll's ledger work comes after the wait.
     */
    static final Duration INSTRUCTED_POLL_WAIT_MAX = Duration.ofMinutes(2);

    @Bean
    public InstructedWindow instructedWindow(
            PendingChains pending, AnswerTimes answerTimes, ClearingProperties properties, MeterRegistry meters) {
        Duration forgotten =
                properties.pendingTimeout().plus(properties.expiryMargin()).plus(PENDING_CHAINS_GRACE);
        Duration waitMax = forgotten.compareTo(INSTRUCTED_POLL_WAIT_MAX) < 0 ? forgotten : INSTRUCTED_POLL_WAIT_MAX;
        return new InstructedWindow(
                pending,
                answerTimes,
                INSTRUCTED_CHAINS_MIN,
                INSTRUCTED_CHAINS_MAX,
                INSTRUCTED_ROUND_MIN,
                properties.pendingTimeout().dividedBy(2),
                waitMax,
                System::nanoTime,
                meters);
    }

    /**
     * With participants, each instance resolves its chains from every instance's outcomes: the answers are applied by
     * whichever instance owns their partition, not by the one that instructed ({@link OutcomesFollower}).
     */
    @Bean
    @ConditionalOnProperty(name = "pagora.clearing.receiving-bank", havingValue = ClearingProperties.PARTICIPANTS_BANK)
    public OutcomesFollower outcomesFollower(
            ConsumerFactory<String, byte[]> consumers, PendingChains pending, Clock clock, MeterRegistry meters) {
        return new OutcomesFollower(consumers.getConfigurationProperties(), pending::resolved, clock, meters);
    }

    /**
     * Housekeeping of the PostgreSQL ledger's expiry (see {@link PostgresExpirySweeper} for why). It
     * uses its own {@link PostgresLedger} on the same DataSource: the instance holds no state.
     */
    @Bean
    @ConditionalOnProperty(name = "pagora.ledger.backend", havingValue = "postgresql", matchIfMissing = true)
    public PostgresExpirySweeper postgresExpirySweeper(DataSource dataSource, ClearingProperties properties) {
        return new PostgresExpirySweeper(
                new PostgresLedger(dataSource, PostgresLedger.Config.DEFAULT), properties.sweepInterval());
    }

    @Bean
    public Settlement settlement(Ledger ledger, ClearingProperties properties) {
        return new Settlement(ledger, properties.pendingTimeoutSeconds());
    }

    /** The simulated receiving bank, when {@code pagora.clearing.receiving-bank} says so (ClearingProperties). */
    @Bean
    @ConditionalOnProperty(name = "pagora.clearing.receiving-bank", havingValue = ClearingProperties.SIMULATED_BANK)
    public ReceivingBank receivingBank(ClearingProperties properties) {
        ClearingProperties.Bank bank = properties.bank();
        log.info(
                "receiving bank: simulator (accept-rate {}, no-answer-rate {}, answer-latency {})",
                bank.acceptRate(),
                bank.noAnswerRate(),
                bank.answerLatency());
        return new SimulatedReceivingBank(bank.acceptRate(), bank.noAnswerRate(), bank.answerLatency());
    }

    /** The outcome factory every use case shares. */
    @Bean
    public Outcomes outcomes(Clock clock) {
        return new Outcomes(clock);
    }

    /** Empty unless participants are instructed: see {@link InstructedEndToEndIds}. */
    @Bean
    public InstructedEndToEndIds instructedEndToEndIds() {
        return new InstructedEndToEndIds();
    }

    /**
     * The outcome port as the use cases see it: observed for the metrics (pending chains, accept→settled latency)
     * here, outermost, so the use cases know nothing of metrics. Not an {@link OutcomePublisher} bean itself, so the
     * publisher bean stays the one to inject (and to decorate, in tests).
     */
    public record MeteredOutcomes(OutcomePublisher publisher) {}

    @Bean
    public MeteredOutcomes meteredOutcomes(
            OutcomePublisher outcomes, PendingChains pendingChains, Clock clock, MeterRegistry meters) {
        return new MeteredOutcomes(new MeteredOutcomePublisher(outcomes, pendingChains, clock, meters));
    }

    @Bean
    public ParkingForExpiry parkingForExpiry(
            Settlement settlement, UnansweredPayments unanswered, Clock clock, ClearingProperties properties) {
        return new ParkingForExpiry(settlement, unanswered, clock, properties.expiryMargin());
    }

    /** Both wirings read parked instructed records: the expiry listener refuses them unless participants answer. */
    @Bean
    public ExpiringInstructed expiringInstructed(
            Settlement settlement, MeteredOutcomes metered, Outcomes outcomes, InstructedEndToEndIds endToEndIds) {
        return new ExpiringInstructed(settlement, metered.publisher(), outcomes, endToEndIds);
    }

    /** Receiving banks are participants: instructed over their streams, answering through payment-api. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "pagora.clearing.receiving-bank", havingValue = ClearingProperties.PARTICIPANTS_BANK)
    public static class ParticipantsWiring {

        @Bean
        public InstructingParticipants instructingParticipants(
                Settlement settlement,
                MeteredOutcomes metered,
                Outcomes outcomes,
                UnansweredPayments unanswered,
                InstructedEndToEndIds endToEndIds,
                Clock clock,
                ClearingProperties properties,
                PendingChains pendingChains,
                KafkaTemplate<String, byte[]> kafka) {
            log.info("receiving banks: participants (instructions over their streams, answers through payment-api)");
            return new InstructingParticipants(
                    settlement,
                    new ObservedInstructions(new KafkaInstructions(kafka, properties.publishTimeout()), pendingChains),
                    metered.publisher(),
                    outcomes,
                    unanswered,
                    endToEndIds,
                    clock,
                    properties.expiryMargin());
        }

        @Bean
        public ApplyingAnswers applyingAnswers(
                Settlement settlement, MeteredOutcomes metered, Outcomes outcomes, InstructedEndToEndIds endToEndIds) {
            return new ApplyingAnswers(settlement, metered.publisher(), outcomes, endToEndIds);
        }

        /** Answers resolve most parked chains first: the expiry path looks them up before any write. */
        @Bean
        public ExpiringUnanswered expiringUnanswered(
                Settlement settlement, MeteredOutcomes metered, Outcomes outcomes) {
            return new ExpiringUnanswered(settlement, metered.publisher(), outcomes, true);
        }
    }

    /** The receiving bank answers in process, within the poll: the simulator, or the embedding application's bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnExpression("'${pagora.clearing.receiving-bank:}' != '" + ClearingProperties.PARTICIPANTS_BANK + "'")
    public static class InProcessBankWiring {

        /** The bank port is observed for the pending-chains metrics, like the outcome port. */
        @Bean
        public SettlingWithTheBank settlingWithTheBank(
                Settlement settlement,
                ReceivingBank bank,
                MeteredOutcomes metered,
                Outcomes outcomes,
                ParkingForExpiry parking,
                PendingChains pendingChains) {
            return new SettlingWithTheBank(
                    settlement, new ObservedReceivingBank(bank, pendingChains), metered.publisher(), outcomes, parking);
        }

        @Bean
        public ExpiringUnanswered expiringUnanswered(
                Settlement settlement, MeteredOutcomes metered, Outcomes outcomes) {
            return new ExpiringUnanswered(settlement, metered.publisher(), outcomes, false);
        }
    }
}
