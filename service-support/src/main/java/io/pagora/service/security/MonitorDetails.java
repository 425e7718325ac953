package io.pagora.service.security;

import java.util.Collection;
import java.util.List;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The metrics scraper (Prometheus), {@code CN=monitor}: it reads {@code /actuator/prometheus} and nothing else.
 * Not a {@link io.pagora.settlement.domain.access.Caller}: it is no participant and never reaches the application, so a
 * scraper's key, which lives on another machine and in more hands, cannot register banks or mint reserves as the
 * operator's could.
 */
record MonitorDetails() implements UserDetails {

    static final String PRINCIPAL_NAME = "monitor";
    static final String ROLE = "MONITOR";

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
        return List.of(new SimpleGrantedAuthority("ROLE_" + ROLE));
    }

    @Override
    public String getPassword() {
        return "";
    }

    @Override
    public String getUsername() {
        return PRINCIPAL_NAME;
    }
}
