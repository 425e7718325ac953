package io.pagora.service.web;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Errors answered below Spring MVC's handlers, as problem+json: import it in a service's configuration,
 * and exclude Boot's {@code ErrorMvcAutoConfiguration} (its /error page answers untyped application/json).
 */
@Configuration(proxyBeanMethods = false)
public class EdgeProblemsConfiguration {

    /** The order of the last of these filters: a service's own filter that must see only sound requests runs after. */
    public static final int EDGE_FILTERS_LAST_ORDER = Ordered.HIGHEST_PRECEDENCE + 1;

    /** Runs first: a header value outside ASCII is refused before anything (Spring Security's firewall) reads it. */
    @Bean
    FilterRegistrationBean<AsciiHeadersFilter> asciiHeadersFilter() {
        FilterRegistrationBean<AsciiHeadersFilter> registration =
                new FilterRegistrationBean<>(new AsciiHeadersFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Runs next: a non-concrete Content-Type must be hidden before anything else reads the request's headers. */
    @Bean
    FilterRegistrationBean<ConcreteContentTypeFilter> concreteContentTypeFilter() {
        FilterRegistrationBean<ConcreteContentTypeFilter> registration =
                new FilterRegistrationBean<>(new ConcreteContentTypeFilter());
        registration.setOrder(EDGE_FILTERS_LAST_ORDER);
        return registration;
    }

    /** Tomcat's own error answers (before or outside Spring MVC) as problem+json, not its HTML page. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        // The context is already the host's child here, and the host creates its error valve when it starts.
        return factory -> factory.addContextCustomizers(context ->
                ((StandardHost) context.getParent()).setErrorReportValveClass(ProblemErrorReportValve.class.getName()));
    }
}
