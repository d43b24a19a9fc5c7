package io.axscheduler.deploy;

import io.axscheduler.api.problem.InvalidRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * A query parameter the API does not know is refused with 400 naming it, instead of being ignored: a misspelt filter
 * ({@code ?stauts=FAILED}) would otherwise answer the whole unfiltered list as if it were the filtered one. The known
 * names of an endpoint are those of its {@code @RequestParam}s; an endpoint that takes a map of them takes any. A
 * parameter of one value given twice ({@code ?size=1&size=500}) is refused too: Spring would join the two with a comma
 * and answer that the value is not a number.
 */
@Configuration(proxyBeanMethods = false)
class KnownQueryParameters implements WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new Refuse()).addPathPatterns("/api/**");
    }

    static final class Refuse implements HandlerInterceptor {

        /** Per handler method its parameter names, each with whether it takes several values; empty when it takes any. */
        private final Map<java.lang.reflect.Method, Optional<Map<String, Boolean>>> known = new ConcurrentHashMap<>();

        @Override
        public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
            String query = request.getQueryString();
            if (query == null || query.isEmpty() || !(handler instanceof HandlerMethod method)) return true;
            Optional<Map<String, Boolean>> names = known.computeIfAbsent(method.getMethod(), m -> namesOf(method));
            if (names.isEmpty()) return true;
            Set<String> seen = new HashSet<>();
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) continue;
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                // Spring Security takes a session's CSRF token as a parameter too
                if (name.equals("_csrf")) continue;
                Boolean many = names.get().get(name);
                if (many == null)
                    throw InvalidRequestException.of(
                            name.isEmpty() ? "query" : name,
                            names.get().isEmpty()
                                    ? "is not a parameter of this endpoint, which takes none"
                                    : "is not a parameter of this endpoint; it takes "
                                            + String.join(", ", names.get().keySet()));
                if (!seen.add(name) && !many) throw InvalidRequestException.of(name, "appears more than once");
            }
            return true;
        }

        private static Optional<Map<String, Boolean>> namesOf(HandlerMethod method) {
            Map<String, Boolean> names = new TreeMap<>();
            for (MethodParameter parameter : method.getMethodParameters()) {
                RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
                if (param == null) continue;
                Class<?> type = parameter.getParameterType();
                if (Map.class.isAssignableFrom(type)) return Optional.empty();
                String name = param.name().isEmpty() ? parameter.getParameterName() : param.name();
                if (name == null) return Optional.empty();
                names.put(name, type.isArray() || java.util.Collection.class.isAssignableFrom(type));
            }
            return Optional.of(names);
        }

        private static String decode(String name) {
            try {
                return URLDecoder.decode(name, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return name;
            }
        }
    }
}
