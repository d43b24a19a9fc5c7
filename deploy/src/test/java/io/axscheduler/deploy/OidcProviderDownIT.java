package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node configured for sign-in through an OIDC provider starts while the provider is down: password and API-key
 * sign-ins work, sign-in through the provider answers 503 with Retry-After, and works once the provider is back.
 */
class OidcProviderDownIT {

    static Node node;
    static HttpServer idp;
    static int idpPort;

    @BeforeAll
    static void start() throws Exception {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            idpPort = free.getLocalPort();
        }
        node = Node.start(
                TestDatabase.freshDatabase("oidc_down"),
                "oidc-down",
                Map.of(
                        "ax.oidc.issuer-uri", "http://127.0.0.1:" + idpPort,
                        "ax.oidc.client-id", "ax-console",
                        "ax.oidc.client-secret", "console-secret-for-tests",
                        "ax.oidc.discovery-retry", "200ms"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
        if (idp != null) idp.stop(0);
    }

    static String at(String path) {
        return "http://127.0.0.1:" + node.api.port + path;
    }

    @Test
    void the_node_runs_without_the_provider_and_signs_in_through_it_once_it_is_back() throws Exception {
        // the API with a key; a JWT the node cannot check yet is 503 with Retry-After (the token may be good: a 401
        // would tell its client its credentials are bad)
        assertThat(node.api.submit("{\"jobType\":\"noop\"}")).isNotBlank();
        OidcLoginIT.Browser browser = new OidcLoginIT.Browser();
        HttpResponse<String> jwt = browser.http.send(
                HttpRequest.newBuilder(URI.create(at("/api/v1/jobs")))
                        .header("Authorization", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(jwt.statusCode()).isEqualTo(503);
        assertThat(jwt.headers().firstValue("Retry-After")).isPresent();
        assertThat(jwt.body()).contains("keys cannot be read");

        // the login page still offers the provider; following the link says it cannot be reached now
        assertThat(browser.get(at("/login")).body()).contains("/oauth2/authorization/oidc", "name=\"password\"");
        HttpResponse<String> down = browser.get(at("/oauth2/authorization/oidc"));
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(down.headers().firstValue("Retry-After")).isPresent();
        assertThat(down.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");

        // the provider comes up: the next sign-in after the retry interval goes to its authorization endpoint
        String issuer = "http://127.0.0.1:" + idpPort;
        idp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), idpPort), 0);
        OidcLoginIT.serveDiscovery(idp, issuer);
        String keys = new JWKSet(new RSAKeyGenerator(2048).keyID("k").generate().toPublicJWK()).toString();
        idp.createContext("/jwks", exchange -> {
            byte[] body = keys.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        idp.start();
        AtomicReference<HttpResponse<String>> redirect = new AtomicReference<>();
        Await.until(
                Duration.ofSeconds(10),
                () -> {
                    try {
                        redirect.set(browser.get(at("/oauth2/authorization/oidc")));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return redirect.get().statusCode() == 302;
                },
                () -> "sign-in through the provider still answers "
                        + redirect.get().statusCode());
        assertThat(redirect.get().headers().firstValue("Location").orElse("")).startsWith(issuer + "/authorize?");
        // and once its keys can be read, the made-up JWT is judged: 401, not 503
        Await.until(
                Duration.ofSeconds(10),
                () -> {
                    try {
                        return browser.http
                                        .send(
                                                HttpRequest.newBuilder(URI.create(at("/api/v1/jobs")))
                                                        .header(
                                                                "Authorization",
                                                                "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln")
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .statusCode()
                                == 401;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                () -> "a made-up JWT is still not answered 401");
        // the provider goes away again: a token naming a key the node has not cached cannot be checked — 503
        idp.stop(0);
        idp = null;
        String unknownKey = java.util.Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString("{\"alg\":\"RS256\",\"kid\":\"not-cached\"}".getBytes())
                + ".eyJzdWIiOiJhIn0.c2ln";
        HttpResponse<String> unchecked = browser.http.send(
                HttpRequest.newBuilder(URI.create(at("/api/v1/jobs")))
                        .header("Authorization", "Bearer " + unknownKey)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unchecked.statusCode()).as(unchecked.body()).isEqualTo(503);
        assertThat(unchecked.headers().firstValue("Retry-After")).isPresent();
    }
}
