package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.session.jdbc.MySqlJdbcIndexedSessionRepositoryCustomizer;

/**
 * The console's sessions live in the database ({@code SPRING_SESSION}, Spring Session JDBC): a user signed in on one
 * node is signed in on every node behind the load balancer, and a node's restart signs no one out. Two requests of
 * one session that add the same attribute at once (the console's pages load their parts in parallel) write it with
 * MySQL's upsert instead of colliding on its key. A session's principal index is the caller's actor
 * ({@code user:carol}, {@code oidc:<subject>}), cut to the column's 100 characters.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleSessions {

    static final int PRINCIPAL_NAME_LENGTH = 100;

    @Bean
    SessionRepositoryCustomizer<JdbcIndexedSessionRepository> consoleSessionStore(Oidc oidc) {
        return repository -> {
            new MySqlJdbcIndexedSessionRepositoryCustomizer().customize(repository);
            repository.setIndexResolver(session -> {
                Object context = session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
                Authentication signedIn = context instanceof SecurityContext c ? c.getAuthentication() : null;
                if (signedIn == null) return Map.of();
                String name = oidc.caller(signedIn).map(Caller::actor).orElse(signedIn.getName());
                return Map.of(
                        FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME,
                        name.length() > PRINCIPAL_NAME_LENGTH ? name.substring(0, PRINCIPAL_NAME_LENGTH) : name);
            });
        };
    }
}
