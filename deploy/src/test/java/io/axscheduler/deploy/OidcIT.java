package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SSO: JWTs signed by a key this test serves as JWKS, their grants in a claim, their subject the actor. */
class OidcIT {

    static final String ISSUER = "https://idp.example.test";
    static HttpServer jwks;
    static RSAKey signing;
    static RSAKey stranger;
    static Node node;

    @BeforeAll
    static void start() throws Exception {
        signing = new RSAKeyGenerator(2048).keyID("k1").generate();
        stranger = new RSAKeyGenerator(2048).keyID("k1").generate();
        byte[] set = new JWKSet(signing.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        jwks.createContext("/jwks", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, set.length);
            exchange.getResponseBody().write(set);
            exchange.close();
        });
        jwks.start();
        node = Node.start(
                TestDatabase.freshDatabase("oidc"),
                "oidc",
                Map.of(
                        "ax.oidc.issuer-uri",
                        ISSUER,
                        "ax.oidc.jwk-set-uri",
                        "http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks",
                        "ax.oidc.grants-claim",
                        "groups",
                        "ax.oidc.audiences",
                        "ax-scheduler",
                        "ax.console.stream.recheck-ms",
                        "1000"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
        if (jwks != null) jwks.stop(0);
    }

    static String token(RSAKey key, String subject, Object groups, long expiresInMs) throws Exception {
        return token(key, subject, groups, expiresInMs, Map.of("aud", "ax-scheduler"));
    }

    static String token(RSAKey key, String subject, Object groups, long expiresInMs, Map<String, Object> more)
            throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject(subject)
                .issueTime(new Date())
                .expirationTime(new Date(System.currentTimeMillis() + expiresInMs));
        if (groups != null) claims.claim("groups", groups);
        more.forEach(claims::claim);
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void a_token_of_the_issuer_acts_with_its_grants_and_its_subject_is_the_actor() throws Exception {
        Api alice = node.api.as(token(signing, "alice", List.of("team-a:OPERATOR"), 60_000));
        Api.Response submitted = alice.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"team-a\"}");
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(201);
        String metadata = node.jdbc()
                .queryForObject(
                        "SELECT CAST(metaData AS CHAR) FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                + " AND sequenceNumber = 0",
                        String.class,
                        submitted.text("jobId"));
        assertThat(metadata).contains("\"oidc:alice\"");
        assertThat(alice.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"team-b\"}")
                        .status())
                .isEqualTo(403);
        assertThat(node.api
                        .as(token(signing, "bob", "team-a:VIEWER team-b:VIEWER", 60_000))
                        .get("/api/v1/jobs/" + submitted.text("jobId"))
                        .status())
                .isEqualTo(200);
        assertThat(node.api.get("/api/v1/jobs").status())
                .as("API keys still work beside OIDC")
                .isEqualTo(200);
    }

    @Test
    void a_stream_opened_with_a_token_ends_when_the_token_expires() throws Exception {
        Api shortLived = node.api.as(token(signing, "carl", List.of("team-a:VIEWER"), 4_000));
        Api longLived = node.api.as(token(signing, "dora", List.of("team-a:VIEWER"), 600_000));
        List<String> expiring = new CopyOnWriteArrayList<>(), lasting = new CopyOnWriteArrayList<>();
        Thread a = EventStream.listen(shortLived, "/api/v1/stream", expiring);
        Thread b = EventStream.listen(longLived, "/api/v1/stream", lasting);
        try {
            Await.until(Duration.ofSeconds(10), () -> expiring.contains(":open"), expiring::toString);
            Await.until(Duration.ofSeconds(10), () -> lasting.contains(":open"), lasting::toString);
            // it ran on for its stream timeout (30 min) after the token's expiry
            Await.until(Duration.ofSeconds(15), () -> expiring.contains(":closed"), expiring::toString);
            assertThat(lasting).doesNotContain(":closed");
        } finally {
            a.interrupt();
            b.interrupt();
        }
    }

    @Test
    void forged_expired_and_grantless_tokens_are_refused() throws Exception {
        assertThat(node.api
                        .as(token(stranger, "mallory", List.of("team-a:ADMIN"), 60_000))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(401);
        assertThat(node.api
                        .as(token(signing, "alice", List.of("team-a:VIEWER"), -60_000))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(401);
        assertThat(node.api
                        .as(token(signing, "carol", null, 60_000))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(403);
        // ADMIN is global: named with one namespace the grant is ignored, not widened to every namespace (it was)
        Api scoped = node.api.as(token(signing, "erin", List.of("team-a:ADMIN"), 60_000));
        assertThat(scoped.get("/api/v1/admin/users").status()).isEqualTo(403);
        // nor when a string of grants spaces it out: "team-a: ADMIN" is one grant, not "team-a:" and "ADMIN"; nor
        // with two colons, nor with a full-width colon (a claim holding a broken grant yields no global role)
        for (String claim : new String[] {
            "team-a: ADMIN default:VIEWER", "team-a:: ADMIN", "default:VIEWER: ADMIN", "default:VIEWER team-a： ADMIN"
        }) {
            Api spaced = node.api.as(token(signing, "erin", claim, 60_000));
            assertThat(spaced.get("/api/v1/admin/users").status()).as(claim).isEqualTo(403);
        }
        // a good grant beside a broken one still holds
        assertThat(node.api
                        .as(token(signing, "erin", "team-a:VIEWER team-b：OPERATOR", 60_000))
                        .get("/api/v1/jobs?namespace=team-a")
                        .status())
                .isEqualTo(200);
        assertThat(scoped.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"secret\"}")
                        .status())
                .isEqualTo(403);
        assertThat(node.api
                        .as(token(signing, "fay", List.of("ADMIN"), 60_000))
                        .get("/api/v1/admin/users")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void a_token_issued_for_another_application_or_an_id_token_is_refused() throws Exception {
        List<String> grants = List.of("team-a:OPERATOR");
        // another client of the same realm, carrying the same grants claim
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of("aud", "other-app", "azp", "other-app")))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(401);
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of()))
                        .get("/api/v1/jobs")
                        .status())
                .as("no audience at all")
                .isEqualTo(401);
        // Keycloak's access token names the client that asked in azp, its audience being another
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of("aud", "account", "azp", "ax-scheduler")))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(200);
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of("aud", "ax-scheduler", "typ", "ID")))
                        .get("/api/v1/jobs")
                        .status())
                .as("an ID token")
                .isEqualTo(401);
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of("aud", "ax-scheduler", "typ", "Refresh")))
                        .get("/api/v1/jobs")
                        .status())
                .as("a refresh token")
                .isEqualTo(401);
        assertThat(node.api
                        .as(token(signing, "gus", grants, 60_000, Map.of("aud", "ax-scheduler", "typ", "Bearer")))
                        .get("/api/v1/jobs")
                        .status())
                .isEqualTo(200);
    }
}
