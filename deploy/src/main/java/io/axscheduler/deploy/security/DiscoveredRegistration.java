package io.axscheduler.deploy.security;

import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

/**
 * The console's client registration at the OIDC provider, read from the provider's discovery document when a sign-in
 * first needs it and kept from then on. A node therefore starts, and its password and API-key sign-ins work, while
 * the provider cannot be reached; sign-in through the provider works once it can. After a failed read the next try
 * waits {@code ax.oidc.discovery-retry}, so an outage is not a request to the provider per click.
 */
final class DiscoveredRegistration implements ClientRegistrationRepository, Iterable<ClientRegistration> {

    private static final Logger log = LoggerFactory.getLogger(DiscoveredRegistration.class);

    private final OidcSettings settings;
    private final Clock clock;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile ClientRegistration discovered;
    private volatile Instant nextTry = Instant.MIN;

    DiscoveredRegistration(OidcSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public ClientRegistration findByRegistrationId(String registrationId) {
        return Oidc.REGISTRATION.equals(registrationId) ? current().orElse(null) : null;
    }

    /** The registration, read now if it has not been (empty while the provider cannot be read). */
    Optional<ClientRegistration> current() {
        ClientRegistration known = discovered;
        if (known != null) return Optional.of(known);
        Instant now = clock.instant();
        // one reader at a time; the others answer "not yet" at once instead of queueing behind a slow provider
        if (now.isBefore(nextTry) || !reading.compareAndSet(false, true)) return Optional.empty();
        try {
            discovered = ClientRegistrations.fromIssuerLocation(settings.issuerUri())
                    .registrationId(Oidc.REGISTRATION)
                    .clientId(settings.clientId())
                    .clientSecret(settings.clientSecret())
                    .scope(settings.scopes())
                    .clientName(settings.loginLabel())
                    .build();
            log.info("read the OIDC provider's discovery document at {}", settings.issuerUri());
        } catch (RuntimeException e) {
            nextTry = now.plus(settings.discoveryRetry());
            log.warn(
                    "the OIDC provider at {} cannot be read ({}); sign-in through it fails until it can",
                    settings.issuerUri(),
                    e.toString());
        } finally {
            reading.set(false);
        }
        return Optional.ofNullable(discovered);
    }

    /**
     * What the login page lists: the link to sign in through the provider, there whether or not the provider has been
     * reached yet. Before it has, the entry names only the link; a sign-in goes through {@link #findByRegistrationId}.
     */
    @Override
    public Iterator<ClientRegistration> iterator() {
        ClientRegistration known = discovered;
        if (known != null) return List.of(known).iterator();
        return List.of(ClientRegistration.withRegistrationId(Oidc.REGISTRATION)
                        .clientId(settings.clientId())
                        .clientName(settings.loginLabel())
                        .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                        .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
                        .authorizationUri(settings.issuerUri())
                        .tokenUri(settings.issuerUri())
                        .build())
                .iterator();
    }
}
