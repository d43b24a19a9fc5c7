package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A request carrying the console's session cookie loads its session from the database before any security filter or
 * controller runs (Spring Session JDBC), so with the database unreachable it failed there, outside the handlers that
 * answer 503: an internal error. This filter, just outside Spring Session's, answers such a failure as every other
 * request meets an outage: 503, Retry-After, problem+json. Nothing was written: the session could not even be read.
 */
@Configuration(proxyBeanMethods = false)
class SessionStoreOutage {

    private static final Logger log = LoggerFactory.getLogger(SessionStoreOutage.class);

    @Bean
    FilterRegistrationBean<Answer503> sessionStoreOutageFilter(ObjectMapper json) {
        FilterRegistrationBean<Answer503> registration = new FilterRegistrationBean<>(new Answer503(json));
        registration.setOrder(SessionRepositoryFilter.DEFAULT_ORDER - 1);
        return registration;
    }

    static final class Answer503 extends OncePerRequestFilter {

        private final ObjectMapper json;

        Answer503(ObjectMapper json) {
            this.json = json;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            try {
                chain.doFilter(request, response);
            } catch (RuntimeException | ServletException e) {
                if (!ProblemHandlers.databaseUnreachable(e) || response.isCommitted()) throw e;
                log.warn("request refused, the database is unreachable: {}", e.toString());
                if (OutagePage.wanted(request)) {
                    OutagePage.write(request, response);
                    return;
                }
                response.resetBuffer();
                response.setStatus(503);
                response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(ProblemHandlers.RETRY_AFTER_S));
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                ProblemDetail problem = ProblemHandlers.unreachable();
                problem.setInstance(URI.create(request.getRequestURI()));
                json.writeValue(response.getOutputStream(), problem);
            }
        }
    }
}
