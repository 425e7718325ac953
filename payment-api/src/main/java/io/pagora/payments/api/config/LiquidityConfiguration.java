package io.pagora.payments.api.config;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.adapter.jdbc.JdbcLiquidityWatches;
import io.pagora.payments.api.adapter.kafka.KafkaBankStreams;
import io.pagora.payments.api.adapter.kafka.KafkaLiquidityNotices;
import io.pagora.payments.api.adapter.web.LiquidityController;
import io.pagora.payments.api.application.administration.ParticipantAdministration;
import io.pagora.payments.api.application.liquidity.SettingWatermarks;
import io.pagora.payments.api.application.liquidity.WatchingReserves;
import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.settlement.domain.BankId;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Liquidity alerts' wiring: the watermarks' API, and the rounds that read every watched reserve, on one thread of
 * their own, with their metrics: {@code pagora.liquidity.alerted{bank}} (1 while alerted),
 * {@code pagora.liquidity.reserve.available{bank}} (centavos) and {@code pagora.liquidity.crossings{crossing}}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LiquidityProperties.class)
public class LiquidityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LiquidityConfiguration.class);

    @Bean
    JdbcLiquidityWatches liquidityWatches(JdbcTemplate jdbc) {
        return new JdbcLiquidityWatches(jdbc);
    }

    @Bean
    WatchingReserves watchingReserves(
            JdbcLiquidityWatches watches,
            KafkaTemplate<String, byte[]> kafka,
            PaymentApiProperties payments,
            Ledger ledger,
            Clock clock) {
        return new WatchingReserves(
                watches,
                new KafkaLiquidityNotices(new KafkaBankStreams(kafka, payments.kafkaAckTimeout())),
                ledger,
                clock);
    }

    @Bean
    LiquidityController liquidityController(
            ParticipantAdministration administration,
            JdbcLiquidityWatches watches,
            Ledger ledger,
            Clock clock,
            PaymentApiProperties payments) {
        return new LiquidityController(
                new SettingWatermarks(administration, watches, ledger, clock), payments.bodyMaxBytes());
    }

    /** Every instance reads; the store lets one record each crossing (WatchingReserves says how). */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService liquidityRounds(
            WatchingReserves reserves, LiquidityProperties properties, MeterRegistry meters) {
        ReserveGauges gauges = new ReserveGauges(meters);
        Map<ReserveWatch.Crossing, Counter> crossings = new EnumMap<>(ReserveWatch.Crossing.class);
        for (ReserveWatch.Crossing crossing : ReserveWatch.Crossing.values()) {
            crossings.put(
                    crossing,
                    Counter.builder("pagora.liquidity.crossings")
                            .description("crossings of a bank's liquidity watermarks recorded by this instance")
                            .tag("crossing", crossing.name())
                            .register(meters));
        }
        ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("liquidity-rounds").daemon(true).factory());
        long everyMillis = properties.readInterval().toMillis();
        rounds.scheduleWithFixedDelay(
                () -> {
                    try {
                        WatchingReserves.Round round = reserves.round();
                        round.crossings()
                                .forEach(crossing -> crossings.get(crossing).increment());
                        reserves.readings().forEach(gauges::show);
                    } catch (RuntimeException e) {
                        log.warn("liquidity: the round failed (retried in the next): {}", e.toString());
                    }
                },
                everyMillis,
                everyMillis,
                TimeUnit.MILLISECONDS);
        return rounds;
    }

    /**
     * A bank's two gauges, registered the first time it is read and then only updated: re-registering a bank's
     * series each round raced the scrape, which then saw one series twice.
     */
    static final class ReserveGauges {
        private final MeterRegistry meters;
        private final Map<BankId, AtomicLong[]> banks = new ConcurrentHashMap<>();

        ReserveGauges(MeterRegistry meters) {
            this.meters = meters;
        }

        void show(WatchingReserves.Reading reading) {
            AtomicLong[] values = banks.computeIfAbsent(reading.bank(), this::register);
            values[0].set(reading.state() == ReserveWatch.State.ALERTED ? 1 : 0);
            values[1].set(reading.availableCentavos());
        }

        private AtomicLong[] register(BankId bank) {
            AtomicLong alerted = new AtomicLong();
            AtomicLong available = new AtomicLong();
            Gauge.builder("pagora.liquidity.alerted", alerted, AtomicLong::get)
                    .description("1 while the bank's reserve is alerted below its low watermark, else 0")
                    .tag("bank", bank.toString())
                    .register(meters);
            Gauge.builder("pagora.liquidity.reserve.available", available, AtomicLong::get)
                    .description("the bank's reserve's available balance as the last round read it")
                    .baseUnit("centavos")
                    .tag("bank", bank.toString())
                    .register(meters);
            return new AtomicLong[] {alerted, available};
        }
    }
}
