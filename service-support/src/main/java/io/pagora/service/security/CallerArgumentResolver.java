package io.pagora.service.security;

import io.pagora.settlement.domain.access.Caller;
import org.springframework.core.MethodParameter;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives a controller method the authenticated {@link Caller} as a parameter, for the application to
 * decide with. Every business endpoint is behind authentication, so a missing caller is a wiring bug:
 * it fails the request (500), never lets it through as nobody.
 */
final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return Caller.class.equals(parameter.getParameterType());
    }

    @Override
    public Caller resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            WebDataBinderFactory binderFactory) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof CallerDetails details) {
            return details.caller();
        }
        throw new IllegalStateException(
                "an endpoint that takes a Caller was reached without one: " + parameter.getExecutable());
    }
}
