package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.security.Role;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint × every kind of caller, over real HTTP: no credentials, a bad, expired or revoked key (401); each
 * role in the namespace of the job or schedule, and each role in another namespace. What a caller may not see is 404,
 * what it may only see is 403. Every resource lives in {@code team-a}.
 */
class AccessMatrixIT {

    static final String NS = "team-a";
    static final String OTHER = "team-b";
    static final List<Role> ROLES = List.of(Role.VIEWER, Role.OPERATOR, Role.EDITOR, Role.WORKER);
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static Node node;
    static final Map<String, String> keys = new LinkedHashMap<>();

    /** How an endpoint decides. */
    enum Kind {
        /** reads or acts on an existing team-a job or schedule */
        RESOURCE,
        /** makes something new in team-a */
        CREATE,
        /** a list: filtered to the caller's namespaces */
        LIST,
        /** needs the role in some namespace, about no namespace in particular */
        SOMEWHERE,
        /** admin only */
        ADMIN,
        /** heartbeat or removal of a worker someone else registered in team-a */
        OTHER_WORKER
    }

    record Endpoint(String method, Supplier<String> path, String body, Role needs, Kind kind) {
        String name() {
            return method + " " + path.get().replaceAll("[0-9a-f-]{20,}", "{id}");
        }
    }

    @BeforeAll
    static void start() throws Exception {
        node = Node.start(TestDatabase.freshDatabase("access_matrix"), "matrix");
        for (Role role : ROLES) {
            keys.put(role + "@" + NS, key(role + "-a", NS, role, null));
            keys.put(role + "@" + OTHER, key(role + "-b", OTHER, role, null));
        }
        keys.put("expired", key("expired", NS, Role.EDITOR, Instant.now().plusMillis(1500)));
        String revoked = key("revoked", NS, Role.EDITOR, null);
        String id = null;
        for (var k : node.api.get("/api/v1/admin/api-keys").body().path("keys")) {
            if (k.path("name").asText().equals("revoked")) id = k.path("id").asText();
        }
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/admin/api-keys/" + id).status())
                .isEqualTo(204);
        keys.put("revoked", revoked);
        Thread.sleep(1600);
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    static String key(String name, String namespace, Role role, Instant expiresAt) {
        Api.Response r = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + name + "\",\"grants\":[{\"namespace\":\"" + namespace + "\",\"role\":\"" + role
                        + "\"}]" + (expiresAt == null ? "" : ",\"expiresAt\":\"" + expiresAt + "\"") + "}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        return r.text("key");
    }

    static String waitingJob() {
        return node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"" + NS + "\",\"delayMs\":3600000}");
    }

    static String canceledJob() {
        String id = waitingJob();
        assertThat(node.api.post("/api/v1/jobs/" + id + "/cancel", "{}").status())
                .isEqualTo(200);
        return id;
    }

    static String schedule() {
        return ScheduleHttp.create(node.api, scheduleBody());
    }

    static String scheduleBody() {
        return "{\"name\":\"m\",\"namespace\":\"" + NS
                + "\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":3600000}," + "\"job\":{\"jobType\":\"noop\"}}";
    }

    static String otherWorker() {
        Api.Response r = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"m\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"echo\"],\"capacity\":1,"
                        + "\"namespace\":\"" + NS + "\"}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        return r.text("workerId");
    }

    static List<Endpoint> endpoints() {
        String job = waitingJob();
        String sched = schedule();
        String jobBody = "{\"jobType\":\"noop\",\"namespace\":\"" + NS + "\",\"delayMs\":3600000}";
        List<Endpoint> all = new ArrayList<>();
        all.add(new Endpoint("GET", () -> "/api/v1/jobs", null, Role.VIEWER, Kind.LIST));
        all.add(new Endpoint("GET", () -> "/api/v1/jobs/" + job, null, Role.VIEWER, Kind.RESOURCE));
        all.add(new Endpoint("GET", () -> "/api/v1/jobs/" + job + "/history", null, Role.VIEWER, Kind.RESOURCE));
        all.add(new Endpoint("POST", () -> "/api/v1/jobs", jobBody, Role.OPERATOR, Kind.CREATE));
        all.add(new Endpoint(
                "POST", () -> "/api/v1/jobs/batch", "{\"jobs\":[" + jobBody + "]}", Role.OPERATOR, Kind.CREATE));
        all.add(new Endpoint(
                "POST", () -> "/api/v1/jobs/" + waitingJob() + "/cancel", "{}", Role.OPERATOR, Kind.RESOURCE));
        all.add(new Endpoint(
                "POST", () -> "/api/v1/jobs/" + canceledJob() + "/retry", null, Role.OPERATOR, Kind.RESOURCE));
        all.add(new Endpoint("GET", () -> "/api/v1/schedules", null, Role.VIEWER, Kind.LIST));
        all.add(new Endpoint("GET", () -> "/api/v1/schedules/" + sched, null, Role.VIEWER, Kind.RESOURCE));
        all.add(new Endpoint("GET", () -> "/api/v1/schedules/" + sched + "/history", null, Role.VIEWER, Kind.RESOURCE));
        all.add(new Endpoint("POST", () -> "/api/v1/schedules", scheduleBody(), Role.EDITOR, Kind.CREATE));
        all.add(new Endpoint(
                "POST",
                () -> "/api/v1/schedules/batch",
                "{\"schedules\":[" + scheduleBody() + "]}",
                Role.EDITOR,
                Kind.CREATE));
        all.add(new Endpoint(
                "PUT", () -> "/api/v1/schedules/" + schedule(), scheduleBody(), Role.EDITOR, Kind.RESOURCE));
        all.add(new Endpoint("DELETE", () -> "/api/v1/schedules/" + schedule(), null, Role.EDITOR, Kind.RESOURCE));
        for (String action : List.of("pause", "resume", "trigger")) {
            all.add(new Endpoint(
                    "POST",
                    () -> "/api/v1/schedules/" + schedule() + "/" + action,
                    null,
                    Role.OPERATOR,
                    Kind.RESOURCE));
        }
        all.add(new Endpoint(
                "POST",
                () -> "/api/v1/cron/validate",
                "{\"expression\":\"0 5 1 * * ?\"}",
                Role.VIEWER,
                Kind.SOMEWHERE));
        all.add(new Endpoint("GET", () -> "/api/v1/workers", null, Role.VIEWER, Kind.LIST));
        all.add(new Endpoint(
                "POST",
                () -> "/api/v1/workers/register",
                "{\"app\":\"m\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"echo\"],\"capacity\":1,"
                        + "\"namespace\":\"" + NS + "\"}",
                Role.WORKER,
                Kind.CREATE));
        all.add(new Endpoint(
                "POST",
                () -> "/api/v1/workers/" + otherWorker() + "/heartbeat",
                "{\"inFlight\":0}",
                Role.WORKER,
                Kind.OTHER_WORKER));
        all.add(new Endpoint("DELETE", () -> "/api/v1/workers/" + otherWorker(), null, Role.WORKER, Kind.OTHER_WORKER));
        all.add(new Endpoint("GET", () -> "/api/v1/admin/api-keys", null, Role.ADMIN, Kind.ADMIN));
        all.add(new Endpoint(
                "POST",
                () -> "/api/v1/admin/api-keys",
                "{\"name\":\"never\",\"grants\":[{\"role\":\"ADMIN\"}]}",
                Role.ADMIN,
                Kind.ADMIN));
        all.add(new Endpoint("GET", () -> "/api/v1/admin/users", null, Role.ADMIN, Kind.ADMIN));
        all.add(new Endpoint("GET", () -> "/api/v1/admin/audit", null, Role.ADMIN, Kind.ADMIN));
        all.add(new Endpoint(
                "POST", () -> "/api/v1/admin/projections/job-queue/rebuild", null, Role.ADMIN, Kind.ADMIN));
        all.add(new Endpoint("GET", () -> "/actuator/prometheus", null, Role.VIEWER, Kind.SOMEWHERE));
        all.add(new Endpoint("GET", () -> "/api/v1/alerts", null, Role.VIEWER, Kind.LIST));
        all.add(new Endpoint("GET", () -> "/api/v1/alerts/rules", null, Role.VIEWER, Kind.LIST));
        return all;
    }

    /** The status a caller holding {@code role} in {@code namespace} must get; 0 means "allowed" (2xx or 409). */
    static int expected(Endpoint e, Role role, String namespace) {
        boolean somewhere = e.needs() != Role.ADMIN && role.covers(e.needs());
        if (!somewhere) return 403;
        boolean home = namespace.equals(NS);
        return switch (e.kind()) {
            case RESOURCE -> home ? 0 : 404;
            case CREATE -> home ? 0 : 403;
            case LIST, SOMEWHERE -> 0;
            case OTHER_WORKER -> home ? 403 : 404;
            case ADMIN -> 403;
        };
    }

    @Test
    void every_endpoint_answers_every_caller_as_the_roles_say() throws Exception {
        List<String> wrong = new ArrayList<>();
        int cells = 0;
        for (Endpoint e : endpoints()) {
            for (String caller : List.of("none", "bad", "expired", "revoked")) {
                String key = switch (caller) {
                    case "none" -> null;
                    case "bad" -> "ax_this-is-no-key-of-this-scheduler-0000000";
                    default -> keys.get(caller);
                };
                int status = call(e, key);
                cells++;
                if (status != 401) wrong.add(e.name() + " as " + caller + ": " + status + " (want 401)");
            }
            for (Role role : ROLES) {
                for (String namespace : List.of(NS, OTHER)) {
                    int status = call(e, keys.get(role + "@" + namespace));
                    int want = expected(e, role, namespace);
                    cells++;
                    boolean ok = want == 0 ? status / 100 == 2 || status == 409 : status == want;
                    if (!ok) {
                        wrong.add(e.name() + " as " + role + "@" + namespace + ": " + status + " (want "
                                + (want == 0 ? "2xx" : want) + ")");
                    }
                }
            }
        }
        assertThat(wrong).as("of %d cells", cells).isEmpty();
    }

    @Test
    void lists_show_only_the_callers_namespaces() {
        String job = waitingJob();
        String sched = schedule();
        Api home = node.api.as(keys.get("VIEWER@" + NS));
        Api away = node.api.as(keys.get("VIEWER@" + OTHER));
        assertThat(home.get("/api/v1/jobs?size=500").body().toString()).contains(job);
        assertThat(away.get("/api/v1/jobs?size=500").body().toString()).doesNotContain(job);
        assertThat(away.get("/api/v1/jobs?namespace=" + NS).body().path("items").size())
                .isZero();
        assertThat(home.get("/api/v1/schedules?size=500").body().toString()).contains(sched);
        assertThat(away.get("/api/v1/schedules?size=500").body().toString()).doesNotContain(sched);
        assertThat(home.get("/api/v1/jobs/" + job).text("namespace")).isEqualTo(NS);
        assertThat(home.get("/api/v1/schedules/" + sched).text("namespace")).isEqualTo(NS);
        assertThat(node.jdbc().queryForObject("SELECT namespace FROM job_queue WHERE job_id = ?", String.class, job))
                .isEqualTo(NS);
        assertThat(node.api.get("/api/v1/jobs?namespace=Bad_NS").status()).isEqualTo(400);
    }

    @Test
    void a_worker_key_heartbeats_and_leaves_as_itself_only() {
        Api worker = node.api.as(keys.get("WORKER@" + NS));
        Api.Response r = worker.post(
                "/api/v1/workers/register",
                "{\"app\":\"self\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"echo\"],\"capacity\":1,"
                        + "\"namespace\":\"" + NS + "\"}");
        assertThat(r.status()).isEqualTo(201);
        String id = r.text("workerId");
        assertThat(worker.post("/api/v1/workers/" + id + "/heartbeat", "{\"inFlight\":0}")
                        .status())
                .isEqualTo(200);
        // a count beyond the worker's capacity (1) or below nothing is heard, and taken within 0..capacity
        for (String[] sent : new String[][] {{"100000", "1"}, {"-1", "0"}}) {
            assertThat(worker.post("/api/v1/workers/" + id + "/heartbeat", "{\"inFlight\":" + sent[0] + "}")
                            .status())
                    .isEqualTo(200);
            assertThat(node.jdbc()
                            .queryForObject("SELECT in_flight FROM workers WHERE worker_id = ?", Integer.class, id))
                    .as(sent[0])
                    .isEqualTo(Integer.parseInt(sent[1]));
        }
        // without a count the heartbeat is heard and the scheduler's count stays
        jdbcSetInFlight(id, 1);
        for (String body : new String[] {"{}", "{\"inFlight\":null}"}) {
            assertThat(worker.post("/api/v1/workers/" + id + "/heartbeat", body).status())
                    .as(body)
                    .isEqualTo(200);
            assertThat(node.jdbc()
                            .queryForObject("SELECT in_flight FROM workers WHERE worker_id = ?", Integer.class, id))
                    .as(body)
                    .isEqualTo(1);
        }
        assertThat(ScheduleHttp.delete(worker, "/api/v1/workers/" + id).status())
                .isEqualTo(204);
    }

    private static void jdbcSetInFlight(String workerId, int inFlight) {
        node.jdbc().update("UPDATE workers SET in_flight = ? WHERE worker_id = ?", inFlight, workerId);
    }

    private static int call(Endpoint e, String key) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + node.api.port + e.path().get()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(
                        e.method(),
                        e.body() == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(e.body()));
        if (key != null) request.header("Authorization", "Bearer " + key);
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
