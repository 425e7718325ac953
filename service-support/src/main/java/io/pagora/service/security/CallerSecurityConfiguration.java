package io.pagora.service.security;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.kernel.Check;
import io.pagora.service.web.ConnectionClosingProtocol;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.service.web.ParticipantConnectionsFilter;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.access.Caller;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.userdetails.UserDetailsByNameServiceWrapper;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.preauth.AbstractPreAuthenticatedProcessingFilter;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationProvider;
import org.springframework.security.web.authentication.preauth.RequestHeaderAuthenticationFilter;
import org.springframework.security.web.authentication.preauth.x509.X509AuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Who is calling, for a service with a participant-facing API (payment-api, reporting-service): mutual
 * TLS ({@code classpath:pagora-tls.yaml}: the server's certificate and the CA that issues participants'),
 * the client certificate's CN naming the caller ({@link Caller#ofPrincipalName}). Deny by default: every
 * request needs a caller except the health probes; the actuator's other endpoints need the operator; the
 * rest is decided by the application, which takes the {@link Caller} as a controller parameter.
 *
 * <p>The {@code plain-http} profile (local experiments only) turns TLS off and takes the caller from the
 * {@value #PLAIN_HTTP_IDENTITY_HEADER} header, without any proof, on 127.0.0.1 only. Without it a service
 * refuses to start without TLS; with it, a service refuses to start with TLS or on another address.
 *
 * <p>Besides callers, one identity reads the metrics only: the scraper, {@code CN=monitor} ({@link MonitorDetails}).
 */
@Configuration(proxyBeanMethods = false)
public class CallerSecurityConfiguration {

    public static final String PLAIN_HTTP_IDENTITY_HEADER = "Pagora-Participant";
    public static final String PLAIN_HTTP_PROFILE = "plain-http";
    private static final Logger log = LoggerFactory.getLogger(CallerSecurityConfiguration.class);
    private static final Duration IDLE_CHECK_LAG = Duration.ofSeconds(2);
    /**
     * Longer than any request of these APIs lasts: every answer has a deadline well below it (the single-payment
     * intake's longest wait is 15 s), and Tomcat drops a connection whose request stalls for its 60 s read timeout.
     */
    private static final Duration REQUEST_DURATION_MAX = Duration.ofSeconds(60);
    /**
     * Connections counted per connection the server may hold: closed ones are counted until forgotten, so the count
     * may run above {@code max-connections}, but never past this many times it.
     */
    private static final int TRACKED_PER_CONNECTION_MAX = 4;

    /**
     * Spring Security observes nothing here (these services export no traces). Turning its observations off in
     * properties leaves its filter chain decorated all the same: every filter of every request wrapped by
     * {@code ObservationFilterChainDecorator} making no-op observations, a large share of a service's CPU. Without
     * observations the chain is not decorated.
     */
    @Bean
    static SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    AccessRefusals accessRefusals(MeterRegistry meters) {
        return new MeteredAccessRefusals(meters);
    }

    /**
     * A principal name to a caller, or to the metrics scraper ({@code monitor}); any other name is refused (and
     * Boot's generated default user never exists).
     */
    @Bean
    UserDetailsService callers() {
        return name -> MonitorDetails.PRINCIPAL_NAME.equals(name)
                ? new MonitorDetails()
                : Caller.ofPrincipalName(name)
                        .map(CallerDetails::new)
                        .orElseThrow(() -> new UsernameNotFoundException("names no participant"));
    }

    /**
     * Connections per participant (pagora-tls.yaml, {@code pagora.web.connections-per-participant-max}): one
     * participant's bound leaves room for the others below {@code max-connections} (checked here, so a change to
     * either setting cannot quietly break it). A connection is forgotten when Tomcat closes it
     * ({@link #connectionClosesObserved}), and in any case after the keep-alive timeout without a request.
     */
    @Bean
    ParticipantConnections participantConnections(Environment environment) {
        int perParticipantMax =
                environment.getRequiredProperty("pagora.web.connections-per-participant-max", Integer.class);
        int connectionsMax = environment.getRequiredProperty("server.tomcat.max-connections", Integer.class);
        Duration keepAlive = environment.getRequiredProperty("server.tomcat.keep-alive-timeout", Duration.class);
        Check.that(
                perParticipantMax < connectionsMax,
                "pagora.web.connections-per-participant-max (%d) must stay below"
                        + " server.tomcat.max-connections (%d), or one participant can hold them all",
                perParticipantMax,
                connectionsMax);
        // A connection is stamped when a request begins; Tomcat's keep-alive starts when it ends, and it looks for idle
        // connections about once a second: one not stamped for this long is surely closed (a safety net: every close
        // is observed, connectionClosesObserved).
        long idleNanos =
                keepAlive.plus(REQUEST_DURATION_MAX).plus(IDLE_CHECK_LAG).toNanos();
        return new ParticipantConnections(
                perParticipantMax, idleNanos, TRACKED_PER_CONNECTION_MAX * connectionsMax, System::nanoTime);
    }

    /** Tomcat tells {@link ParticipantConnections} of every connection it closes, so none is counted past it. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> connectionClosesObserved(
            ParticipantConnections connections) {
        return factory -> {
            factory.setProtocol(ConnectionClosingProtocol.class.getName());
            factory.addConnectorCustomizers(connector ->
                    ((ConnectionClosingProtocol) connector.getProtocolHandler()).observeCloses(connections::closed));
        };
    }

    @Bean
    SecurityFilterChain callerSecurity(
            HttpSecurity http,
            UserDetailsService callers,
            AccessRefusals refusals,
            Environment environment,
            ParticipantConnections connections,
            MeterRegistry meters)
            throws Exception {
        boolean plainHttp = environment.matchesProfiles(PLAIN_HTTP_PROFILE);
        checkTransport(environment, plainHttp);
        SecurityProblems problems = new SecurityProblems(refusals, plainHttp ? PLAIN_HTTP_IDENTITY_HEADER : null);
        http.authorizeHttpRequests(requests -> requests.requestMatchers(EndpointRequest.to("health"))
                        .permitAll()
                        .requestMatchers(EndpointRequest.to("prometheus"))
                        .hasAnyRole(CallerDetails.OPERATOR_ROLE, MonitorDetails.ROLE)
                        .requestMatchers(EndpointRequest.toAnyEndpoint())
                        .hasRole(CallerDetails.OPERATOR_ROLE)
                        // The application decides the rest, for a Caller: the monitor is none.
                        .anyRequest()
                        .hasAnyRole(CallerDetails.OPERATOR_ROLE, CallerDetails.BANK_ROLE))
                .x509(x509 -> x509.x509AuthenticationFilter(
                        preAuthenticated(new CertificateAuthenticationFilter(new CommonNameExtractor()), callers)))
                // No cookies, no sessions, no browser forms: every request proves who sends it.
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .anonymous(AbstractHttpConfigurer::disable)
                .exceptionHandling(
                        errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        if (plainHttp) {
            http.addFilterAfter(identityHeaderFilter(callers), X509AuthenticationFilter.class);
        }
        // Once the caller is known, before anything is decided for it.
        http.addFilterBefore(new ParticipantConnectionsFilter(connections, meters), AuthorizationFilter.class);
        return http.build();
    }

    /**
     * A request with a method no endpoint has (e.g. {@code FOO}) is answered by Spring MVC like any other such
     * method, 405 method-not-allowed, instead of the firewall's bare 400: authorization does not depend on the
     * method (every request needs a caller; the actuator the operator), so passing unknown methods on grants nothing.
     */
    @Bean
    WebSecurityCustomizer unknownMethodsReachSpringMvc() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return web -> web.httpFirewall(firewall);
    }

    @Bean
    WebMvcConfigurer callerArguments() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new CallerArgumentResolver());
            }
        };
    }

    /**
     * TLS on, or the experiments profile asked for plain HTTP, with TLS off and on a loopback address only: never
     * plain HTTP by accident, and never the identity header next to TLS (a client without a certificate would name
     * itself) nor on a reachable address.
     */
    static void checkTransport(Environment environment, boolean plainHttp) {
        boolean tls = environment.getProperty("server.ssl.enabled", Boolean.class, true)
                && environment.getProperty("server.ssl.bundle") != null;
        if (plainHttp) {
            Check.that(
                    !tls,
                    "the %s profile takes callers from a header without proof: it runs without TLS only"
                            + " (server.ssl.enabled=false, as pagora-tls.yaml's profile section sets)",
                    PLAIN_HTTP_PROFILE);
            String address = environment.getProperty("server.address", "");
            Check.that(
                    isLoopback(address),
                    "the %s profile listens on a loopback address only, not \"%s\"",
                    PLAIN_HTTP_PROFILE,
                    address);
            log.warn("""

                    ******************************************************************************************
                    INSECURE: plain HTTP (profile plain-http). Callers are named by the {} header WITHOUT ANY
                    PROOF: anybody who reaches this port can act as any bank or as the operator.
                    For local experiments on 127.0.0.1 only; never for a demo, a bench or real money.
                    ******************************************************************************************""", PLAIN_HTTP_IDENTITY_HEADER);
            return;
        }
        Check.that(
                tls,
                "TLS is off (server.ssl.bundle unset or server.ssl.enabled=false): participant identity needs"
                        + " mutual TLS; for plain-HTTP local experiments run with the plain-http profile");
    }

    private static boolean isLoopback(String address) {
        try {
            return !address.isBlank() && InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static RequestHeaderAuthenticationFilter identityHeaderFilter(UserDetailsService callers) {
        RequestHeaderAuthenticationFilter filter = new RequestHeaderAuthenticationFilter();
        filter.setPrincipalRequestHeader(PLAIN_HTTP_IDENTITY_HEADER);
        filter.setExceptionIfHeaderMissing(false);
        return preAuthenticated(filter, callers);
    }

    /**
     * A filter that names the caller from the request (certificate or header), resolved by {@code callers}; the
     * context lives in the request only (never a session: every request proves who sends it).
     */
    private static <F extends AbstractPreAuthenticatedProcessingFilter> F preAuthenticated(
            F filter, UserDetailsService callers) {
        PreAuthenticatedAuthenticationProvider provider = new PreAuthenticatedAuthenticationProvider();
        provider.setPreAuthenticatedUserDetailsService(new UserDetailsByNameServiceWrapper<>(callers));
        filter.setAuthenticationManager(new ProviderManager(provider));
        filter.setSecurityContextRepository(new RequestAttributeSecurityContextRepository());
        return filter;
    }
}
