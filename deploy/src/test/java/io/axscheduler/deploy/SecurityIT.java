package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Authentication on two nodes of one database: keys made through the admin API, revocation, the actor. */
class SecurityIT {

    static Node a;
    static Node b;

    @BeforeAll
    static void start() {
        String db = TestDatabase.freshDatabase("security");
        a = Node.start(db, "sec-a");
        b = Node.start(db, "sec-b");
    }

    @AfterAll
    static void stop() {
        if (b != null) b.close();
        if (a != null) a.close();
    }

    static String key(String name, String grants) {
        return key(name, grants, null);
    }

    static String key(String name, String grants, Instant expiresAt) {
        Api.Response r = a.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + name + "\",\"grants\":" + grants
                        + (expiresAt == null ? "" : ",\"expiresAt\":\"" + expiresAt + "\"") + "}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        return r.text("key");
    }

    @Test
    void a_keys_grants_read_the_same_in_its_create_answer_and_in_the_list() {
        Api.Response made = a.api.post("/api/v1/admin/api-keys", """
                {"name":"grants-order","grants":[{"role":"VIEWER","namespace":"zeta"},{"namespace":"alpha","role":"OPERATOR"}]}""");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        String listed = null;
        for (var k : a.api.get("/api/v1/admin/api-keys").body().path("keys")) {
            if (k.path("name").asText().equals("grants-order"))
                listed = k.path("grants").toString();
        }
        assertThat(made.body().path("grants").toString())
                .isEqualTo(listed)
                .isEqualTo(
                        "[{\"namespace\":\"alpha\",\"role\":\"OPERATOR\"},{\"namespace\":\"zeta\",\"role\":\"VIEWER\"}]");
    }

    @Test
    void without_valid_credentials_every_endpoint_answers_401_as_a_problem() {
        for (Api caller : new Api[] {a.api.anonymous(), a.api.as("ax_not-a-key-of-this-scheduler-at-all")}) {
            for (String path :
                    new String[] {"/api/v1/jobs", "/api/v1/schedules", "/api/v1/workers", "/actuator/prometheus"}) {
                Api.Response r = caller.get(path);
                assertThat(r.status()).as(path).isEqualTo(401);
                assertThat(r.contentType()).startsWith("application/problem+json");
            }
            assertThat(caller.post("/api/v1/jobs", "{\"jobType\":\"noop\"}").status())
                    .isEqualTo(401);
        }
        Api.Response health = a.api.anonymous().get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().has("components"))
                .as("no details without credentials")
                .isFalse();
        Api.Response component = a.api.anonymous().get("/actuator/health/scanner");
        assertThat(component.status()).isEqualTo(401);
        assertThat(component.contentType()).startsWith("application/problem+json");
        assertThat(a.api.get("/actuator/health/scanner").body().path("status").asText())
                .isEqualTo("UP");
    }

    @Test
    void a_request_with_a_key_leaves_no_session_behind() throws Exception {
        // a session per API call would hold memory for half an hour per call: a busy client could fill the heap
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/api/v1/jobs?size=1", "/api/v1/jobs/no-such-job", "/api/v1/jobs?size=0")) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.api.port + path))
                            .header("Authorization", "Bearer " + Api.ADMIN_KEY)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isIn(200, 400, 404);
            assertThat(r.headers().allValues("Set-Cookie")).as(path).isEmpty();
        }
        HttpResponse<String> submitted = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.api.port + "/api/v1/jobs"))
                        .header("Authorization", "Bearer " + Api.ADMIN_KEY)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jobType\":\"noop\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(submitted.statusCode()).isEqualTo(201);
        assertThat(submitted.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void a_key_is_shown_once_stored_as_a_hash_and_listed_without_it() {
        String made = key(
                "listed-" + UUID.randomUUID().toString().substring(0, 8),
                "[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]");
        assertThat(made).startsWith("ax_").hasSizeGreaterThanOrEqualTo(40);
        JsonNode list = a.api.get("/api/v1/admin/api-keys").body();
        assertThat(list.toString()).doesNotContain(made);
        Integer stored = a.jdbc()
                .queryForObject("SELECT COUNT(*) FROM api_keys WHERE key_hash = SHA2(?, 256)", Integer.class, made);
        assertThat(stored).isEqualTo(1);
        assertThat(a.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM api_keys WHERE grants LIKE ?", Integer.class, "%" + made + "%"))
                .isZero();
    }

    @Test
    void a_viewer_reads_but_may_not_act_and_only_an_admin_manages_keys() {
        String viewer = key(
                "viewer-" + UUID.randomUUID().toString().substring(0, 8),
                "[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]");
        assertThat(a.api.as(viewer).get("/api/v1/jobs").status()).isEqualTo(200);
        Api.Response submit = a.api.as(viewer).post("/api/v1/jobs", "{\"jobType\":\"noop\"}");
        assertThat(submit.status()).isEqualTo(403);
        // a refusal names what would do: the grants of the role, where
        assertThat(submit.text("detail"))
                .isEqualTo("the credentials do not allow this: it needs a grant of OPERATOR, EDITOR or ADMIN in some"
                        + " namespace");
        // an operator of another namespace gets past that, and is told where it lacks the grant
        String teamOperator = key(
                "team-op-" + UUID.randomUUID().toString().substring(0, 8),
                "[{\"namespace\":\"default\",\"role\":\"VIEWER\"},{\"namespace\":\"team-a\",\"role\":\"OPERATOR\"}]");
        Api.Response elsewhere =
                a.api.as(teamOperator).post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"default\"}");
        assertThat(elsewhere.status()).as(elsewhere.body().toString()).isEqualTo(403);
        assertThat(elsewhere.text("detail"))
                .isEqualTo("not allowed in namespace default: this needs a grant of OPERATOR, EDITOR or ADMIN there");
        // named nowhere, the job went to default: the refusal says so and where the key may submit
        Api.Response unnamed = a.api.as(teamOperator).post("/api/v1/jobs", "{\"jobType\":\"noop\"}");
        assertThat(unnamed.status()).isEqualTo(403);
        assertThat(unnamed.text("detail"))
                .endsWith("; the request names no namespace, so it went to default: name one in \"namespace\""
                        + " (this caller's as OPERATOR: team-a)");
        Api.Response keys = a.api.as(viewer).get("/api/v1/admin/api-keys");
        assertThat(keys.status()).isEqualTo(403);
        assertThat(keys.text("detail"))
                .isEqualTo(
                        "the credentials do not allow this: it needs the ADMIN role (global: it takes no namespace)");
        assertThat(a.api.as(viewer).post("/api/v1/schedules", "{}").text("detail"))
                .isEqualTo("the credentials do not allow this: it needs a grant of EDITOR or ADMIN in some namespace");
        assertThat(a.api.as(viewer).get("/actuator/prometheus").status()).isEqualTo(200);
    }

    @Test
    void an_expired_key_is_refused() throws Exception {
        String expiring = key(
                "expiring-" + UUID.randomUUID().toString().substring(0, 8),
                "[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]",
                Instant.now().plusSeconds(2));
        assertThat(a.api.as(expiring).get("/api/v1/jobs").status()).isEqualTo(200);
        Thread.sleep(2_500);
        assertThat(a.api.as(expiring).get("/api/v1/jobs").status()).isEqualTo(401);
    }

    @Test
    void a_revoked_key_is_refused_by_the_other_node_within_a_second() throws Exception {
        String name = "revoked-" + UUID.randomUUID().toString().substring(0, 8);
        String key = key(name, "[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]");
        assertThat(b.api.as(key).get("/api/v1/jobs").status()).isEqualTo(200);
        String id = null;
        for (JsonNode k : a.api.get("/api/v1/admin/api-keys").body().path("keys")) {
            if (k.path("name").asText().equals(name)) id = k.path("id").asText();
        }
        int revoked = ScheduleHttp.delete(a.api, "/api/v1/admin/api-keys/" + id).status();
        assertThat(revoked).isEqualTo(204);
        long revokedAt = System.nanoTime();
        int status;
        do {
            status = b.api.as(key).get("/api/v1/jobs").status();
        } while (status == 200 && System.nanoTime() - revokedAt < 3_000_000_000L);
        long tookMs = (System.nanoTime() - revokedAt) / 1_000_000;
        assertThat(status).isEqualTo(401);
        assertThat(tookMs).as("ms until node b refused the revoked key").isLessThanOrEqualTo(1_000);
        // revoked again: still revoked, nothing more recorded (AdminTrailIT)
        assertThat(ScheduleHttp.delete(a.api, "/api/v1/admin/api-keys/" + id).status())
                .isEqualTo(204);
    }

    @Test
    void the_actor_of_an_event_is_the_key_whatever_the_headers_say() {
        String name = "operator-" + UUID.randomUUID().toString().substring(0, 8);
        String operator = key(name, "[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]");
        Api.Response submitted =
                a.api.as(operator).post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-Actor", "somebody-else");
        assertThat(submitted.status()).isEqualTo(201);
        String jobId = submitted.text("jobId");
        String actor = a.jdbc()
                .queryForObject(
                        "SELECT CAST(metaData AS CHAR) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND sequenceNumber = 0",
                        String.class,
                        jobId);
        assertThat(actor).contains("\"key:" + name + "\"").doesNotContain("somebody-else");
        assertThat(a.api.as(operator)
                        .post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-On-Behalf-Of", "alice")
                        .status())
                .as("only an ON_BEHALF_OF key may name another")
                .isEqualTo(403);
    }

    @Test
    void a_schedules_changes_list_each_edit_with_actor_time_and_changed_fields() {
        String editorName = "editor-" + UUID.randomUUID().toString().substring(0, 8);
        Api editor = a.api.as(key(editorName, "[{\"namespace\":\"default\",\"role\":\"EDITOR\"}]"));
        String body = "{\"name\":\"nightly\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":%d},"
                + "\"job\":{\"jobType\":\"noop\"}}";
        String id = ScheduleHttp.create(a.api, String.format(body, 3_600_000));
        assertThat(ScheduleHttp.put(editor, "/api/v1/schedules/" + id, String.format(body, 7_200_000))
                        .status())
                .isEqualTo(200);
        assertThat(editor.post("/api/v1/schedules/" + id + "/pause", "").status())
                .isEqualTo(200);
        assertThat(a.api.post("/api/v1/schedules/" + id + "/resume", "").status())
                .isEqualTo(200);
        assertThat(ScheduleHttp.delete(editor, "/api/v1/schedules/" + id).status())
                .isEqualTo(200);

        JsonNode changes =
                a.api.get("/api/v1/schedules/" + id + "/changes").body().path("changes");
        assertThat(changes).hasSize(5);
        assertThat(changes.get(0).path("change").asText()).isEqualTo("CREATED");
        assertThat(changes.get(0).path("actor").asText()).isEqualTo("key:bootstrap-admin");
        JsonNode update = changes.get(1);
        assertThat(update.path("change").asText()).isEqualTo("UPDATED");
        assertThat(update.path("actor").asText()).isEqualTo("key:" + editorName);
        assertThat(update.path("at").asText()).isNotBlank();
        assertThat(update.path("diff")).hasSize(1);
        assertThat(update.path("diff").get(0).path("field").asText()).isEqualTo("trigger.intervalMs");
        assertThat(update.path("diff").get(0).path("from").asLong()).isEqualTo(3_600_000);
        assertThat(update.path("diff").get(0).path("to").asLong()).isEqualTo(7_200_000);
        assertThat(changes.get(2).path("change").asText()).isEqualTo("PAUSED");
        assertThat(changes.get(2).path("diff").get(0).path("field").asText()).isEqualTo("paused");
        assertThat(changes.get(3).path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(changes.get(4).path("change").asText()).isEqualTo("DELETED");
        assertThat(changes.get(4).path("actor").asText()).isEqualTo("key:" + editorName);
    }

    @Test
    void an_on_behalf_of_key_names_whom_it_acts_for_beside_itself() {
        String name = "gateway-" + UUID.randomUUID().toString().substring(0, 8);
        Api gateway =
                a.api.as(key(name, "[{\"namespace\":\"default\",\"role\":\"OPERATOR\"},{\"role\":\"ON_BEHALF_OF\"}]"));
        Api.Response submitted = gateway.post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-On-Behalf-Of", "erin");
        assertThat(submitted.status()).isEqualTo(201);
        JsonNode created = a.api.get("/api/v1/jobs/" + submitted.text("jobId") + "/history")
                .body()
                .path("events")
                .get(0)
                .path("metadata");
        assertThat(created.path("actor").asText()).isEqualTo("key:" + name);
        assertThat(created.path("onBehalfOf").asText()).isEqualTo("erin");

        // a name too long, or with control characters, is a bad header, not a refusal of the key
        for (String bad : new String[] {"x".repeat(201), "er\tin"}) {
            Api.Response refused = gateway.post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-On-Behalf-Of", bad);
            assertThat(refused.status()).as(refused.body().toString()).isEqualTo(400);
            assertThat(refused.body().at("/errors/0/field").asText()).isEqualTo("X-On-Behalf-Of");
        }
        // two names: which one the audit would keep is left to chance, so neither is taken
        Api.Response twice = gateway.post(
                "/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-On-Behalf-Of", "alice", "X-On-Behalf-Of", "bob");
        assertThat(twice.status()).as(twice.body().toString()).isEqualTo(400);
        assertThat(twice.body().at("/errors/0/message").asText()).isEqualTo("must be given once");
        // a key without the grant naming someone is refused
        Api operator = a.api.as(key("op-" + name, "[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]"));
        Api.Response named = operator.post("/api/v1/jobs", "{\"jobType\":\"noop\"}", "X-On-Behalf-Of", "erin");
        assertThat(named.status()).isEqualTo(403);
        assertThat(named.text("detail")).contains("X-On-Behalf-Of needs a key with the ON_BEHALF_OF role");
    }

    @Test
    void a_grant_is_what_was_asked_or_refused() {
        for (String grants : new String[] {
            "[{\"namespace\":\"team-a\",\"role\":\"ADMIN\"}]",
            "[{\"namespace\":\"team-a\",\"role\":\"ON_BEHALF_OF\"}]",
            "[{\"namespace\":\"team-a\",\"role\":\"VIEWER\",\"scope\":\"all\"}]",
            "[\"team-a:VIEWER\"]"
        }) {
            Api.Response refused =
                    a.api.post("/api/v1/admin/api-keys", "{\"name\":\"asked-too-much\",\"grants\":" + grants + "}");
            assertThat(refused.status()).as(grants + " " + refused.body()).isEqualTo(400);
            assertThat(refused.body().at("/errors/0/field").asText()).as(grants).startsWith("grants[0]");
        }
        Api.Response global =
                a.api.post("/api/v1/admin/api-keys", "{\"name\":\"global-admin\",\"grants\":[{\"role\":\"ADMIN\"}]}");
        assertThat(global.status()).as(global.body().toString()).isEqualTo(201);
    }

    @Test
    void ssrf_through_workers_and_http_jobs_is_refused() {
        for (String address : new String[] {
            "http://127.0.0.1:9999/internal/admin?cmd=wipe#",
            "http://169.254.169.254/latest",
            "http://2130706433:9999",
            "http://[::ffff:169.254.169.254]",
            "http://user:pw@127.0.0.1:9999"
        }) {
            Api.Response r = a.api.post(
                    "/api/v1/workers/register",
                    "{\"app\":\"x\",\"address\":\"" + address + "\",\"jobTypes\":[\"echo\"],\"capacity\":1}");
            assertThat(r.status()).as(address).isEqualTo(400);
            assertThat(r.body().toString()).as(address).contains("\"address\"");
        }
        Api.Response http = a.api.post(
                "/api/v1/jobs",
                "{\"jobType\":\"http\",\"params\":{\"url\":\"http://localhost:" + a.api.port
                        + "/actuator/prometheus\"}}");
        assertThat(http.status()).isEqualTo(400);
        assertThat(http.body().toString()).contains("params.url", "not allowed");
    }

    @Test
    void cors_stays_closed_to_other_origins() throws Exception {
        var response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create("http://127.0.0.1:" + a.api.port + "/api/v1/jobs"))
                                .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody())
                                .header("Origin", "https://evil.example")
                                .header("Access-Control-Request-Method", "POST")
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
        assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        Api.Response any = a.api.get("/api/v1/jobs");
        assertThat(any.status()).isEqualTo(200);
    }

    @Test
    void bad_admin_requests_are_problems_naming_the_field() {
        Api.Response r = a.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"\",\"grants\":[{\"namespace\":\"Bad NS\",\"role\":\"VIEWER\"},{\"role\":\"ROOT\"}]}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().toString()).contains("\"name\"", "grants[0].namespace", "grants[1].role");
        // a bad role does not hide a bad namespace beside it
        Api.Response both = a.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"both-bad\",\"grants\":[{\"namespace\":\"Team A\",\"role\":\"GOD\"}]}");
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.body().toString()).contains("grants[0].role", "grants[0].namespace");
    }

    @Test
    void a_key_or_user_name_in_use_is_a_conflict_on_either_node_even_at_once() throws Exception {
        String grants = "[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]";
        String name = "taken-" + UUID.randomUUID().toString().substring(0, 8);
        key(name, grants);
        Api.Response again =
                b.api.post("/api/v1/admin/api-keys", "{\"name\":\"" + name + "\",\"grants\":" + grants + "}");
        assertThat(again.status()).as(again.body().toString()).isEqualTo(409);
        assertThat(again.text("detail")).contains(name);
        assertThat(again.text("title")).isEqualTo("Already exists");
        assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM api_keys WHERE name = ?", Integer.class, name))
                .isEqualTo(1);

        String user =
                "{\"username\":\"" + name + "\",\"password\":\"a-long-enough-password\",\"grants\":" + grants + "}";
        assertThat(a.api.post("/api/v1/admin/users", user).status()).isEqualTo(201);
        Api.Response userAgain = b.api.post("/api/v1/admin/users", user);
        assertThat(userAgain.status()).as(userAgain.body().toString()).isEqualTo(409);
        assertThat(userAgain.text("detail")).contains(name);
        assertThat(userAgain.text("title")).isEqualTo("Already exists");

        // both nodes at once: the name's unique key decides, and the loser is told so, not a 500
        for (int round = 0; round < 5; round++) {
            String raced = "raced-" + round + "-" + UUID.randomUUID().toString().substring(0, 8);
            String body = "{\"name\":\"" + raced + "\",\"grants\":" + grants + "}";
            var onA = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> a.api.post("/api/v1/admin/api-keys", body).status());
            var onB = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> b.api.post("/api/v1/admin/api-keys", body).status());
            assertThat(List.of(onA.get(), onB.get())).as(raced).containsExactlyInAnyOrder(201, 409);
            assertThat(a.jdbc().queryForObject("SELECT COUNT(*) FROM api_keys WHERE name = ?", Integer.class, raced))
                    .isEqualTo(1);
        }
        for (int round = 0; round < 5; round++) {
            String raced =
                    "raced-user-" + round + "-" + UUID.randomUUID().toString().substring(0, 8);
            String body = "{\"username\":\"" + raced + "\",\"password\":\"a-long-enough-password\",\"grants\":" + grants
                    + "}";
            var onA = java.util.concurrent.CompletableFuture.supplyAsync(() -> a.api.post("/api/v1/admin/users", body));
            var onB = java.util.concurrent.CompletableFuture.supplyAsync(() -> b.api.post("/api/v1/admin/users", body));
            List<Api.Response> answers = List.of(onA.get(), onB.get());
            assertThat(answers.stream().map(Api.Response::status).toList())
                    .as(raced)
                    .containsExactlyInAnyOrder(201, 409);
            Api.Response lost =
                    answers.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
            assertThat(lost.text("detail"))
                    .as("told the name is taken, not a retry's story")
                    .contains("exists");
            assertThat(a.jdbc()
                            .queryForObject(
                                    "SELECT COUNT(*) FROM console_users WHERE username = ?", Integer.class, raced))
                    .isEqualTo(1);
        }
    }

    @Test
    void the_first_start_on_a_fresh_data_directory_makes_and_prints_an_admin() throws Exception {
        Path dataDir = Files.createTempDirectory("ax-bootstrap");
        String db = TestDatabase.freshDatabase("bootstrap");
        try (Node fresh = Node.start(
                db,
                "fresh",
                Map.of(
                        "ax.bootstrap.admin-key",
                        "",
                        "ax.bootstrap.admin-password",
                        "",
                        "ax.data-dir",
                        dataDir.toString()))) {
            Path file = dataDir.resolve("initial-admin.txt");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
            String text = Files.readString(file);
            String key = text.lines()
                    .filter(l -> l.startsWith("AX_ADMIN_KEY="))
                    .findFirst()
                    .orElseThrow()
                    .substring(13);
            String password = text.lines()
                    .filter(l -> l.startsWith("console password: "))
                    .findFirst()
                    .orElseThrow()
                    .substring(18);
            assertThat(password).hasSizeGreaterThanOrEqualTo(16);
            assertThat(fresh.api.as(key).get("/api/v1/admin/api-keys").status()).isEqualTo(200);
            assertThat(fresh.api.as(Api.ADMIN_KEY).get("/api/v1/jobs").status()).isEqualTo(401);
        }
        Files.delete(dataDir.resolve("initial-admin.txt"));
        try (Node again = Node.start(
                db,
                "again",
                Map.of(
                        "ax.bootstrap.admin-key",
                        "",
                        "ax.bootstrap.admin-password",
                        "",
                        "ax.data-dir",
                        dataDir.toString()))) {
            assertThat(dataDir.resolve("initial-admin.txt"))
                    .as("made once per database, not per start")
                    .doesNotExist();
        }
    }

    @Test
    void a_deleted_admin_user_stays_deleted_when_the_next_start_is_given_its_password() throws Exception {
        String db = TestDatabase.freshDatabase("bootstrap_deleted");
        Map<String, String> settings = Map.of(
                "ax.data-dir", Files.createTempDirectory("ax-bootstrap-deleted").toString());
        try (Node first = Node.start(db, "first", settings)) {
            assertThat(first.api
                            .post(
                                    "/api/v1/admin/users",
                                    "{\"username\":\"ops-lead\",\"password\":\"a-long-password-1\","
                                            + "\"grants\":[{\"role\":\"ADMIN\"}]}")
                            .status())
                    .isEqualTo(201);
            assertThat(first.api.delete("/api/v1/admin/users/admin").status()).isEqualTo(204);
        }
        try (Node again = Node.start(db, "again", settings)) {
            assertThat(again.jdbc().queryForList("SELECT username FROM console_users ORDER BY username", String.class))
                    .containsExactly("ops-lead");
            // the given key is still added at any start, as the documentation says
            assertThat(again.api.get("/api/v1/admin/api-keys").status()).isEqualTo(200);
        }
    }

    @Test
    void a_first_start_that_fails_halfway_leaves_the_next_start_to_make_the_admin() throws Exception {
        Path dataDir = Files.createTempDirectory("ax-bootstrap-halfway");
        String db = TestDatabase.freshDatabase("bootstrap_halfway");
        Map<String, String> settings = Map.of(
                "ax.bootstrap.admin-key", "", "ax.bootstrap.admin-password", "", "ax.data-dir", dataDir.toString());
        // the console user cannot be made: the first start stops after marking itself and making the key
        org.flywaydb.core.Flyway.configure()
                .dataSource(db, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration")
                .load()
                .migrate();
        JdbcTemplate jdbc = new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                db, TestDatabase.user(), TestDatabase.password()));
        jdbc.execute("CREATE TRIGGER refuse_users BEFORE INSERT ON console_users FOR EACH ROW"
                + " SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no users today'");
        assertThatThrownBy(() -> Node.start(db, "halfway", settings).close()).hasStackTraceContaining("no users today");
        jdbc.execute("DROP TRIGGER refuse_users");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM security_bootstrap", Integer.class))
                .as("the mark went with what failed")
                .isZero();
        try (Node again = Node.start(db, "whole", settings)) {
            String text = Files.readString(dataDir.resolve("initial-admin.txt"));
            assertThat(text).contains("AX_ADMIN_KEY=").contains("console password: ");
            String key = text.lines()
                    .filter(l -> l.startsWith("AX_ADMIN_KEY="))
                    .findFirst()
                    .orElseThrow()
                    .substring(13);
            assertThat(again.api.as(key).get("/api/v1/admin/api-keys").status()).isEqualTo(200);
        }
    }
}
