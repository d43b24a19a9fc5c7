package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.CookieManager;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's sign-in through an OIDC provider: the test serves the provider (discovery, authorize, token and JWKS
 * endpoints, ID tokens signed by its own key) and walks the authorization code flow as a browser would, over HTTP.
 */
class OidcLoginIT {

    static final String CLIENT_ID = "ax-console";
    static final String CLIENT_SECRET = "console-secret-for-tests";

    static HttpServer idp;
    static String issuer;
    static RSAKey signing;
    static Node node;
    /** code → the nonce its authorization request carried. */
    static final Map<String, String> nonces = new ConcurrentHashMap<>();
    /** Authorization headers the token endpoint received. */
    static final Queue<String> tokenAuth = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        signing = new RSAKeyGenerator(2048).keyID("login-key").generate();
        idp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuer = "http://127.0.0.1:" + idp.getAddress().getPort();
        serveDiscovery(idp, issuer);
        idp.createContext("/jwks", exchange -> json(exchange, new JWKSet(signing.toPublicJWK()).toString()));
        idp.createContext("/authorize", OidcLoginIT::authorize);
        idp.createContext("/token", OidcLoginIT::token);
        idp.start();
        node = Node.start(
                TestDatabase.freshDatabase("oidc_login"),
                "oidc-login",
                Map.of(
                        "ax.oidc.issuer-uri", issuer,
                        "ax.oidc.client-id", CLIENT_ID,
                        "ax.oidc.client-secret", CLIENT_SECRET,
                        "ax.oidc.grants-claim", "groups",
                        "ax.oidc.session-max", SESSION_MAX_MS + "ms"));
    }

    /** Long enough for a test's sign-in and its steps on a slow machine, short enough to be waited out. */
    static final long SESSION_MAX_MS = 12_000;

    @AfterAll
    static void stop() {
        if (node != null) node.close();
        if (idp != null) idp.stop(0);
    }

    /** Serves the provider's discovery document at {@code issuer}: authorize, token and JWKS endpoints under it. */
    static void serveDiscovery(HttpServer server, String issuer) {
        server.createContext(
                "/.well-known/openid-configuration",
                exchange -> json(
                        exchange,
                        Api.JSON.writeValueAsString(Map.of(
                                "issuer",
                                issuer,
                                "authorization_endpoint",
                                issuer + "/authorize",
                                "token_endpoint",
                                issuer + "/token",
                                "jwks_uri",
                                issuer + "/jwks",
                                "end_session_endpoint",
                                issuer + "/logout",
                                "response_types_supported",
                                List.of("code"),
                                "subject_types_supported",
                                List.of("public"),
                                "id_token_signing_alg_values_supported",
                                List.of("RS256"),
                                "token_endpoint_auth_methods_supported",
                                List.of("client_secret_basic")))));
    }

    /** Signs the user in at once: back to the client with a code, the request's nonce kept for the ID token. */
    static void authorize(HttpExchange exchange) throws IOException {
        Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
        if (!CLIENT_ID.equals(q.get("client_id")) || !"code".equals(q.get("response_type"))) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        String code = UUID.randomUUID().toString();
        nonces.put(code, q.getOrDefault("nonce", ""));
        exchange.getResponseHeaders()
                .add(
                        "Location",
                        q.get("redirect_uri") + "?code=" + code + "&state="
                                + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8));
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    /** The grants the provider puts in the next ID tokens. */
    static volatile List<String> groups = List.of("default:OPERATOR");

    static void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = query(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        tokenAuth.add(String.valueOf(auth));
        String expected = "Basic "
                + Base64.getEncoder()
                        .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        String nonce = nonces.remove(form.getOrDefault("code", ""));
        if (!expected.equals(auth) || nonce == null) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        try {
            JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .subject("alice")
                    .audience(CLIENT_ID)
                    .issueTime(new Date())
                    .expirationTime(new Date(System.currentTimeMillis() + 300_000))
                    .claim("groups", groups);
            if (!nonce.isEmpty()) claims.claim("nonce", nonce);
            SignedJWT idToken = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.RS256)
                            .keyID(signing.getKeyID())
                            .build(),
                    claims.build());
            idToken.sign(new RSASSASigner(signing));
            json(
                    exchange,
                    Api.JSON.writeValueAsString(Map.of(
                            "access_token",
                            "opaque-" + UUID.randomUUID(),
                            "token_type",
                            "Bearer",
                            "expires_in",
                            300,
                            "scope",
                            "openid",
                            "id_token",
                            idToken.serialize())));
        } catch (Exception e) {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        }
    }

    static void json(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    static Map<String, String> query(String raw) {
        Map<String, String> map = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) return map;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            map.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return map;
    }

    /** A browser: keeps cookies, follows no redirect by itself. */
    static final class Browser {
        final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        HttpResponse<String> get(String url) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> postForm(String url, String form) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(form))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        /** Follows redirects from {@code url} (at most 10) and returns the last answer. */
        HttpResponse<String> follow(String url) throws Exception {
            HttpResponse<String> r = get(url);
            for (int i = 0; i < 10 && r.statusCode() / 100 == 3; i++) {
                r = get(r.request()
                        .uri()
                        .resolve(r.headers().firstValue("Location").orElseThrow())
                        .toString());
            }
            return r;
        }
    }

    static String at(String path) {
        return "http://127.0.0.1:" + node.api.port + path;
    }

    @Test
    void the_login_page_offers_the_provider_beside_the_password_form() throws Exception {
        String page = new Browser().get(at("/login")).body();
        assertThat(page).contains("/oauth2/authorization/oidc", "Single sign-on", "name=\"password\"");
    }

    @Test
    void a_user_signs_in_through_the_provider_and_acts_as_its_subject() throws Exception {
        Browser browser = new Browser();
        assertThat(browser.get(at("/console")).statusCode()).isEqualTo(302);

        HttpResponse<String> console = browser.follow(at("/oauth2/authorization/oidc"));
        assertThat(console.statusCode())
                .as(console.uri() + " " + console.body())
                .isEqualTo(200);
        assertThat(console.uri().getPath()).doesNotContain("login");
        assertThat(tokenAuth)
                .as("the code was redeemed with the client's secret")
                .isNotEmpty();
        assertThat(browser.get(at("/console")).statusCode()).as("signed in").isEqualTo(200);

        // its grants come from the ID token's claim: an OPERATOR in default cancels a job there from the console
        String jobId = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":3600000}");
        String jobPage = browser.get(at("/console/jobs/" + jobId)).body();
        Matcher csrf = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(jobPage);
        assertThat(csrf.find()).as("a CSRF token on the job page").isTrue();
        HttpResponse<String> canceled = browser.postForm(
                at("/console/jobs/" + jobId + "/cancel"),
                "reason=not+needed&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8));
        assertThat(canceled.statusCode()).isEqualTo(302);
        JsonNode events =
                node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events");
        JsonNode last = events.get(events.size() - 1);
        assertThat(last.path("type").asText()).isEqualTo("JobCanceled");
        assertThat(last.path("metadata").path("actor").asText()).isEqualTo("oidc:alice");
    }

    @Test
    void signing_out_ends_the_session_at_the_provider_too_and_comes_back_to_the_sign_in_page() throws Exception {
        Browser browser = new Browser();
        assertThat(browser.follow(at("/oauth2/authorization/oidc")).statusCode())
                .isEqualTo(200);
        Matcher csrf = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"")
                .matcher(browser.get(at("/console")).body());
        assertThat(csrf.find()).as("a CSRF token on the sign-out form").isTrue();

        HttpResponse<String> out =
                browser.postForm(at("/logout"), "_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8));

        assertThat(out.statusCode()).isEqualTo(302);
        URI provider = URI.create(out.headers().firstValue("Location").orElseThrow());
        assertThat(provider.toString()).startsWith(issuer + "/logout?");
        Map<String, String> q = query(provider.getRawQuery());
        assertThat(q.get("id_token_hint"))
                .as("the ID token names the session to end")
                .isNotBlank();
        assertThat(q.get("post_logout_redirect_uri")).isEqualTo(at("/login?logout"));
        // and the console's own session is over
        HttpResponse<String> after = browser.get(at("/console"));
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(after.headers().firstValue("Location").orElse("")).endsWith("/login");
    }

    @Test
    void a_sign_in_through_the_provider_ends_at_its_maximum_however_busy() throws Exception {
        Browser browser = new Browser();
        long before = System.currentTimeMillis();
        HttpResponse<String> console = browser.follow(at("/oauth2/authorization/oidc"));
        assertThat(console.statusCode()).as(console.body()).isEqualTo(200);
        // busy all along: each request would renew an idle timeout, not this one
        while (System.currentTimeMillis() < before + SESSION_MAX_MS - 3_000) {
            assertThat(browser.get(at("/console")).statusCode()).as("signed in").isEqualTo(200);
            Thread.sleep(1_000);
        }
        // the ID token's issue time is in whole seconds, at most one before the sign-in began
        Thread.sleep(Math.max(0, before + SESSION_MAX_MS + 500 - System.currentTimeMillis()));
        assertThat(browser.get(at("/api/v1/jobs")).statusCode()).isEqualTo(401);
        HttpResponse<String> after = browser.get(at("/console"));
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(after.headers().firstValue("Location").orElse("")).endsWith("/login");
        // a new sign-in through the provider gets fresh claims and a new session
        assertThat(browser.follow(at("/oauth2/authorization/oidc")).statusCode())
                .isEqualTo(200);
        assertThat(browser.get(at("/console")).statusCode()).isEqualTo(200);
    }

    @Test
    void a_user_without_any_grant_is_told_so_on_every_page() throws Exception {
        groups = List.of();
        try {
            Browser browser = new Browser();
            assertThat(browser.follow(at("/oauth2/authorization/oidc")).statusCode())
                    .isEqualTo(200);
            assertThat(browser.get(at("/console")).body()).contains("data-testid=\"flash-no-grants\"");
            assertThat(browser.get(at("/console/jobs")).body()).contains("data-testid=\"flash-no-grants\"");
        } finally {
            groups = List.of("default:OPERATOR");
        }
        Browser granted = new Browser();
        granted.follow(at("/oauth2/authorization/oidc"));
        assertThat(granted.get(at("/console")).body()).doesNotContain("flash-no-grants");
    }

    @Test
    void a_forged_callback_without_the_flows_state_signs_no_one_in() throws Exception {
        Browser browser = new Browser();
        HttpResponse<String> r = browser.get(at("/login/oauth2/code/oidc?code=made-up&state=made-up"));
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location").orElse("")).endsWith("/login?error=sso");
        assertThat(browser.get(at("/console")).statusCode()).isEqualTo(302);
        // the page says the provider's sign-in failed, not that a password was wrong
        String page = browser.get(at("/login?error=sso")).body();
        assertThat(page).contains("data-testid=\"login-sso-failed\"").doesNotContain("data-testid=\"login-failed\"");
    }
}
