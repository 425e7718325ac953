package io.pagora.service.config;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * The configuration every Pagora service shares, imported by each: {@code pagora-service.properties} (where the
 * servers are, graceful shutdown, the management endpoints and the HTTP latency buckets) and the one shape of the
 * topics' durability ({@link TopicsProperties}, {@code pagora.topics.*}). A {@code @PropertySource} ranks below a
 * service's own application.yml and below the environment, so the shared values are defaults a service or an
 * operator overrides, each in one place.
 */
@Configuration(proxyBeanMethods = false)
@PropertySource("classpath:pagora-service.properties")
@EnableConfigurationProperties(TopicsProperties.class)
public class ServiceDefaults {}
