package io.pagora.service.security;

import io.pagora.settlement.domain.access.Caller;
import java.util.Collection;
import java.util.List;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * An authenticated caller as Spring Security holds it. The only authority is the caller's kind
 * ({@code ROLE_OPERATOR} or {@code ROLE_BANK}), used for the actuator; every business decision is the
 * application's, from the {@link Caller} itself.
 */
public record CallerDetails(Caller caller) implements UserDetails {

    public static final String OPERATOR_ROLE = "OPERATOR";
    public static final String BANK_ROLE = "BANK";

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
        return List.of(new SimpleGrantedAuthority("ROLE_"
                + switch (caller) {
                    case Caller.Operator operator -> OPERATOR_ROLE;
                    case Caller.Bank bank -> BANK_ROLE;
                }));
    }

    /** Certificates, not passwords: there is none. */
    @Override
    public String getPassword() {
        return "";
    }

    @Override
    public String getUsername() {
        return caller.principalName();
    }
}
