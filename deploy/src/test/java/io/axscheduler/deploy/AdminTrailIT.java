package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.api.security.Role;
import io.axscheduler.deploy.security.ApiKeys;
import io.axscheduler.deploy.security.ConsoleUsers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Key, user, alert rule, rebuild, worker and scanning changes are events in the store, with the authenticated actor,
 * read back by an admin.
 */
class AdminTrailIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(TestDatabase.freshDatabase("admintrail"), "trail");
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @Test
    void key_user_and_rebuild_changes_are_events_with_their_actor() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String adminName = "second-admin-" + suffix;
        Api.Response admin = newKey(adminName, "{\"role\":\"ADMIN\"}");
        Api second = node.api.as(admin.text("key"));

        String viewerName = "viewer-" + suffix;
        Api.Response viewer = second.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + viewerName + "\",\"grants\":[{\"namespace\":\"team-a\",\"role\":\"VIEWER\"}],"
                        + "\"expiresAt\":\"2999-01-01T00:00:00Z\"}");
        assertThat(viewer.status()).isEqualTo(201);
        String viewerId = viewer.text("id");
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/admin/api-keys/" + viewerId)
                        .status())
                .isEqualTo(204);
        // revoked again (another admin's retry): still revoked, the first revocation stays the one recorded
        assertThat(ScheduleHttp.delete(second, "/api/v1/admin/api-keys/" + viewerId)
                        .status())
                .isEqualTo(204);
        assertThat(ScheduleHttp.delete(second, "/api/v1/admin/api-keys/no-such-key")
                        .status())
                .isEqualTo(404);
        String user = "carol-" + suffix;
        assertThat(second.post(
                                "/api/v1/admin/users",
                                "{\"username\":\"" + user + "\",\"password\":\"a-long-password-1\","
                                        + "\"grants\":[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]}")
                        .status())
                .isEqualTo(201);
        // named as typed, matched as the database does (ignoring case): the trail names the account as it was made
        assertThat(ScheduleHttp.delete(second, "/api/v1/admin/users/" + user.toUpperCase(java.util.Locale.ROOT))
                        .status())
                .isEqualTo(204);
        assertThat(second.post("/api/v1/admin/projections/job-queue/rebuild", "")
                        .status())
                .isEqualTo(200);

        List<JsonNode> trail = new ArrayList<>();
        node.api.get("/api/v1/admin/audit?limit=500").body().path("events").forEach(trail::add);
        assertThat(trail.get(0).path("type").asText()).isEqualTo("ProjectionRebuildRequested");
        assertThat(trail.get(0).path("actor").asText()).isEqualTo("key:" + adminName);
        assertThat(trail.get(0).path("payload").path("name").asText()).isEqualTo("job-queue");
        assertThat(trail.get(1).path("type").asText()).isEqualTo("ConsoleUserDeleted");
        assertThat(trail.get(1).path("actor").asText()).isEqualTo("key:" + adminName);
        assertThat(trail.get(1).path("payload").path("username").asText()).isEqualTo(user);
        assertThat(trail.get(2).path("type").asText()).isEqualTo("ConsoleUserCreated");
        assertThat(trail.get(2).path("payload").path("grants").toString())
                .isEqualTo("[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]");
        assertThat(trail.get(3).path("type").asText()).isEqualTo("ApiKeyRevoked");
        assertThat(trail.get(3).path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(trail.get(3).path("payload").path("keyId").asText()).isEqualTo(viewerId);
        JsonNode created = trail.get(4);
        assertThat(created.path("type").asText()).isEqualTo("ApiKeyCreated");
        assertThat(created.path("actor").asText()).isEqualTo("key:" + adminName);
        assertThat(created.path("node").asText()).isEqualTo("trail");
        assertThat(created.path("payload").path("name").asText()).isEqualTo(viewerName);
        assertThat(created.path("payload").path("expiresAt").asText()).startsWith("2999-01-01T00:00");
        assertThat(created.toString()).doesNotContain(viewer.text("key"));
        assertThat(trail.get(5).path("actor").asText()).isEqualTo("key:bootstrap-admin");
        assertThat(trail).anySatisfy(e -> {
            assertThat(e.path("type").asText()).isEqualTo("ConsoleUserCreated");
            assertThat(e.path("payload").path("username").asText()).isEqualTo("admin");
            assertThat(e.path("actor").asText()).isEqualTo("bootstrap");
        });

        // the same actors, read straight from the event store
        List<String> stored = node.jdbc()
                .queryForList(
                        "SELECT CAST(metaData AS CHAR) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                        String.class,
                        "admin:key:" + viewerId);
        assertThat(stored).hasSize(2);
        assertThat(stored.get(0)).contains("\"actor\":\"key:" + adminName + "\"");
        assertThat(stored.get(1)).contains("\"actor\":\"key:bootstrap-admin\"");
        Integer withKey = node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM DomainEventEntry WHERE CAST(payload AS CHAR) LIKE ?"
                                + " OR CAST(payload AS CHAR) LIKE CONCAT('%', SHA2(?, 256), '%')",
                        Integer.class, "%" + viewer.text("key") + "%", viewer.text("key"));
        assertThat(withKey).as("neither the key nor its hash is in the store").isZero();
    }

    @Test
    void alert_rule_changes_are_events_with_their_actor() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Api.Response admin = newKey("rules-admin-" + suffix, "{\"role\":\"ADMIN\"}");
        Api second = node.api.as(admin.text("key"));
        String rule = "failures-" + suffix;
        Api.Response made = node.api.post(
                "/api/v1/alerts/rules",
                "{\"name\":\"" + rule + "\",\"type\":\"JOB_FAILED\",\"filter\":{\"namespace\":\"team-a\"},"
                        + "\"threshold\":1,\"forMs\":0,\"channels\":[]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        Api.Response changed = ScheduleHttp.put(
                second,
                "/api/v1/alerts/rules/" + rule,
                "{\"type\":\"JOB_FAILED\",\"filter\":{\"namespace\":\"team-a\"},\"threshold\":5,\"forMs\":60000,"
                        + "\"channels\":[]}");
        assertThat(changed.status()).as(changed.body().toString()).isEqualTo(200);
        // a refused change records nothing
        assertThat(ScheduleHttp.put(
                                second,
                                "/api/v1/alerts/rules/" + rule,
                                "{\"type\":\"JOB_FAILED\",\"threshold\":5,\"forMs\":-1,\"channels\":[]}")
                        .status())
                .isEqualTo(400);
        assertThat(ScheduleHttp.delete(second, "/api/v1/alerts/rules/" + rule).status())
                .isEqualTo(204);
        assertThat(ScheduleHttp.delete(second, "/api/v1/alerts/rules/" + rule).status())
                .isEqualTo(404);

        List<JsonNode> trail = new ArrayList<>();
        node.api.get("/api/v1/admin/audit?limit=500").body().path("events").forEach(e -> {
            if (e.path("payload").path("name").asText().equals(rule)) trail.add(e);
        });
        assertThat(trail)
                .extracting(e -> e.path("type").asText())
                .containsExactly("AlertRuleDeleted", "AlertRuleUpdated", "AlertRuleCreated");
        assertThat(trail)
                .extracting(e -> e.path("actor").asText())
                .containsExactly("key:rules-admin-" + suffix, "key:rules-admin-" + suffix, "key:bootstrap-admin");
        JsonNode updated = trail.get(1).path("payload").path("rule");
        assertThat(updated.path("threshold").asLong()).isEqualTo(5);
        assertThat(updated.path("forMs").asLong()).isEqualTo(60000);
        assertThat(updated.path("filter").path("namespace").asText()).isEqualTo("team-a");
        assertThat(trail.get(2).path("payload").path("rule").path("threshold").asLong())
                .isEqualTo(1);
        // the stream of the rule, in the store
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                                Integer.class,
                                "admin:alert-rule:" + rule))
                .isEqualTo(3);
    }

    @Test
    void workers_taken_out_and_scanning_paused_are_events_with_their_actor() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String keyName = "trail-worker-" + suffix;
        Api.Response key = newKey(keyName, "{\"namespace\":\"default\",\"role\":\"WORKER\"}");
        Api worker = node.api.as(key.text("key"));
        String app = "trail-app-" + suffix;
        String takenOut = register(worker, app);
        String byKey = register(worker, app);
        String leaving = register(worker, app);

        // an admin takes one out; the key's revocation takes out another; the third leaves by itself
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/workers/" + takenOut).status())
                .isEqualTo(204);
        assertThat(ScheduleHttp.delete(worker, "/api/v1/workers/" + leaving).status())
                .isEqualTo(204);
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/admin/api-keys/" + key.text("id"))
                        .status())
                .isEqualTo(204);
        assertThat(node.api.post("/api/v1/admin/scanning/pause", "").status()).isEqualTo(200);
        assertThat(node.api.post("/api/v1/admin/scanning/resume", "").status()).isEqualTo(200);

        List<JsonNode> trail = new ArrayList<>();
        node.api.get("/api/v1/admin/audit?limit=500").body().path("events").forEach(trail::add);
        assertThat(trail.get(0).path("type").asText()).isEqualTo("ScanningResumed");
        assertThat(trail.get(1).path("type").asText()).isEqualTo("ScanningPaused");
        for (JsonNode e : trail.subList(0, 2)) {
            assertThat(e.path("actor").asText()).isEqualTo("key:bootstrap-admin");
            assertThat(e.path("payload").path("node").asText()).isEqualTo("trail");
        }
        List<JsonNode> removals = trail.stream()
                .filter(e -> e.path("type").asText().equals("WorkerRemoved"))
                .filter(e -> e.path("payload").path("app").asText().equals(app))
                .toList();
        assertThat(removals)
                .extracting(e -> e.path("payload").path("workerId").asText())
                .containsExactly(byKey, takenOut);
        assertThat(removals).allSatisfy(e -> {
            assertThat(e.path("actor").asText()).isEqualTo("key:bootstrap-admin");
            assertThat(e.path("payload").path("namespace").asText()).isEqualTo("default");
            assertThat(e.path("payload").path("address").asText()).startsWith("http://127.0.0.1:");
        });
        assertThat(removals.get(0).path("payload").path("reason").asText())
                .contains("its API key key:" + keyName + " was revoked by key:bootstrap-admin");
        assertThat(removals.get(1).path("payload").path("reason").asText()).isEqualTo("removed by key:bootstrap-admin");
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?",
                                Integer.class,
                                "admin:worker:" + leaving))
                .as("a worker leaving by itself is no admin action")
                .isZero();
    }

    /** A key named {@code name} with the one grant given (as JSON), made by the bootstrap admin. */
    private static Api.Response newKey(String name, String grant) {
        Api.Response key =
                node.api.post("/api/v1/admin/api-keys", "{\"name\":\"" + name + "\",\"grants\":[" + grant + "]}");
        assertThat(key.status()).isEqualTo(201);
        return key;
    }

    /** Registers a worker of {@code app} at an address where nothing listens, and returns its id. */
    private static String register(Api as, String app) throws java.io.IOException {
        Api.Response registered = as.post(
                "/api/v1/workers/register",
                "{\"app\":\"" + app + "\",\"address\":\"http://127.0.0.1:" + WorkerRemoteIT.closedPort()
                        + "\",\"jobTypes\":[\"trail-type\"],\"capacity\":1}");
        assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
        return registered.text("workerId");
    }

    @Test
    void the_audit_pages_newest_first_and_only_for_an_admin() {
        for (int i = 0; i < 3; i++) {
            assertThat(node.api
                            .post("/api/v1/admin/projections/job-queue/rebuild", "")
                            .status())
                    .isEqualTo(200);
        }
        JsonNode first = node.api.get("/api/v1/admin/audit?limit=2").body();
        assertThat(first.path("events")).hasSize(2);
        long a = first.path("events").get(0).path("index").asLong();
        long b = first.path("events").get(1).path("index").asLong();
        assertThat(a).isGreaterThan(b);
        long next = first.path("next").asLong();
        assertThat(next).isEqualTo(b);
        JsonNode second =
                node.api.get("/api/v1/admin/audit?limit=2&before=" + next).body();
        assertThat(second.path("events").get(0).path("index").asLong()).isLessThan(b);

        assertThat(node.api.get("/api/v1/admin/audit?limit=0").status()).isEqualTo(400);
        assertThat(node.api.get("/api/v1/admin/audit?before=x").body().toString())
                .contains("\"before\"");
        Api.Response viewer = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"audit-viewer-" + UUID.randomUUID().toString().substring(0, 8)
                        + "\",\"grants\":[{\"namespace\":\"default\",\"role\":\"OPERATOR\"}]}");
        assertThat(node.api.as(viewer.text("key")).get("/api/v1/admin/audit").status())
                .isEqualTo(403);
        assertThat(node.api.anonymous().get("/api/v1/admin/audit").status()).isEqualTo(401);
    }

    @Test
    void a_change_whose_row_cannot_be_written_leaves_no_event() {
        Caller caller = new Caller("key:someone", null, Set.of(Grant.of(Grant.ALL, Role.ADMIN)));
        // a user of a name in use: its row goes first and fails, told as a conflict, and no event is appended
        String userEvents = "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = 'admin:user:admin'";
        Integer usersBefore = node.jdbc().queryForObject(userEvents, Integer.class);
        assertThatThrownBy(() -> node.bean(ConsoleUsers.class)
                        .create("admin", "another-long-password", Set.of(Grant.of(Grant.ALL, Role.ADMIN)), caller))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(node.jdbc().queryForObject(userEvents, Integer.class)).isEqualTo(usersBefore);
        // a key of a name in use, past the API's own check: its event is appended first (a new stream), then its
        // row's INSERT fails in the same transaction, which takes the event back with it
        String keyEvents = "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier LIKE 'admin:key:%'";
        Integer keysBefore = node.jdbc().queryForObject(keyEvents, Integer.class);
        String taken = node.jdbc().queryForObject("SELECT name FROM api_keys LIMIT 1", String.class);
        assertThatThrownBy(() -> node.bean(ApiKeys.class)
                        .create(taken, Set.of(Grant.of(Grant.ALL, Role.ADMIN)), null, caller, ApiKeys.newKey()))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(node.jdbc().queryForObject(keyEvents, Integer.class)).isEqualTo(keysBefore);
        assertThat(node.api.get("/api/v1/admin/audit?limit=500").body().toString())
                .doesNotContain("key:someone");
    }

    @Test
    void a_change_whose_event_cannot_be_stored_leaves_its_row_alone() {
        String user = "mallory-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(node.api
                        .post(
                                "/api/v1/admin/users",
                                "{\"username\":\"" + user + "\",\"password\":\"a-long-password-1\","
                                        + "\"grants\":[{\"namespace\":\"default\",\"role\":\"VIEWER\"}]}")
                        .status())
                .isEqualTo(201);
        // an unreadable event in the user's stream: loading it to append the deletion fails after the row's DELETE
        node.jdbc()
                .update(
                        "INSERT INTO DomainEventEntry (aggregateIdentifier, sequenceNumber, type, eventIdentifier,"
                                + " metaData, payload, payloadType, timeStamp) VALUES (?, 1, 'AdminTrail', ?, '{}',"
                                + " 'not json', 'io.axscheduler.api.admin.ConsoleUserCreated', '2026-01-01T00:00:00Z')",
                        "admin:user:" + user,
                        UUID.randomUUID().toString());

        int status =
                ScheduleHttp.delete(node.api, "/api/v1/admin/users/" + user).status();

        assertThat(status).isGreaterThanOrEqualTo(500);
        assertThat(node.jdbc()
                        .queryForObject("SELECT COUNT(*) FROM console_users WHERE username = ?", Integer.class, user))
                .as("the deletion rolled back with its event")
                .isEqualTo(1);
    }

    @Test
    void the_last_console_admin_cannot_be_deleted() {
        // the bootstrap made "admin"; a second admin may go, and then "admin" is the last
        String other = "other-admin-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(node.api
                        .post(
                                "/api/v1/admin/users",
                                "{\"username\":\"" + other + "\",\"password\":\"a-long-password-1\","
                                        + "\"grants\":[{\"role\":\"ADMIN\"}]}")
                        .status())
                .isEqualTo(201);
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/admin/users/" + other).status())
                .isEqualTo(204);
        for (String name : new String[] {"admin", "ADMIN", "admin%20"}) {
            Api.Response last = ScheduleHttp.delete(node.api, "/api/v1/admin/users/" + name);
            assertThat(last.status()).as(name + " " + last.body()).isEqualTo(409);
            assertThat(last.body().path("detail").asText()).contains("last console user with ADMIN");
        }
        assertThat(node.jdbc()
                        .queryForObject("SELECT COUNT(*) FROM console_users WHERE username = 'admin'", Integer.class))
                .isEqualTo(1);
    }
}
