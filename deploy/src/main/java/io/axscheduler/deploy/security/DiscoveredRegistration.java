package io.axscheduler.deploy.security;

import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

/**
 * The console's client registration at the OIDC provider, read from the provider's discovery document when a sign-in
 * first needs it ({@link ReadWhenNeeded}). A node therefore starts, and its password and API-key sign-ins work, while
 * the provider cannot be reached; sign-in through the provider works once it can.
 */
final class DiscoveredRegistration implements ClientRegistrationRepository, Iterable<ClientRegistration> {

    private final OidcSettings settings;
    private final ReadWhenNeeded<ClientRegistration> registration;

    DiscoveredRegistration(OidcSettings settings, Clock clock) {
        this.settings = settings;
        this.registration = new ReadWhenNeeded<>(
                "the OIDC provider's discovery document at " + settings.issuerUri(),
                () -> ClientRegistrations.fromIssuerLocation(settings.issuerUri())
                        .registrationId(Oidc.REGISTRATION)
                        .clientId(settings.clientId())
                        .clientSecret(settings.clientSecret())
                        .scope(settings.scopes())
                        .clientName(settings.loginLabel())
                        .build(),
                clock,
                settings.discoveryRetry());
    }

    @Override
    public ClientRegistration findByRegistrationId(String registrationId) {
        return Oidc.REGISTRATION.equals(registrationId) ? current().orElse(null) : null;
    }

    /** The registration, read now if it has not been (empty while the provider cannot be read). */
    Optional<ClientRegistration> current() {
        return registration.get();
    }

    /**
     * What the login page lists: the link to sign in through the provider, there whether or not the provider has been
     * reached yet. Before it has, the entry names only the link; a sign-in goes through {@link #findByRegistrationId}.
     */
    @Override
    public Iterator<ClientRegistration> iterator() {
        return List.of(registration.known().orElseGet(this::linkOnly)).iterator();
    }

    private ClientRegistration linkOnly() {
        return ClientRegistration.withRegistrationId(Oidc.REGISTRATION)
                .clientId(settings.clientId())
                .clientName(settings.loginLabel())
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
                .authorizationUri(settings.issuerUri())
                .tokenUri(settings.issuerUri())
                .build();
    }
}
