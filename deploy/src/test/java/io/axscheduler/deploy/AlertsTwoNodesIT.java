package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.alert.EvaluateAlerts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two nodes with the same rule: one evaluates it (the lease holder), the condition raises one alert and one delivery,
 * and when that node stops the other takes over and resolves it; a condition waiting for its forMs when the evaluating
 * node stops is raised by the other at its original due time.
 */
class AlertsTwoNodesIT {

    static final String NOW_MS = "SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)";

    @Test
    void a_condition_pending_for_its_for_ms_is_raised_on_time_by_the_node_that_takes_over() throws Exception {
        String db = TestDatabase.freshDatabase("alerts_failover");
        long forMs = 15_000;
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, String> settings = settings(receiver);
            Node a = Node.start(db, "fo-a", settings);
            try (Node b = Node.start(db, "fo-b", settings)) {
                Api.Response rule = a.api.post(
                        "/api/v1/alerts/rules",
                        "{\"name\":\"slow\",\"type\":\"CRON_RUNAWAY\",\"threshold\":100,\"forMs\":" + forMs
                                + ",\"channels\":[\"hook\"]}");
                assertThat(rule.status()).isEqualTo(201);
                ScheduleHttp.create(b.api, """
                        {"name":"often","trigger":{"type":"cron","expression":"0 0/5 * * * ?"},
                         "job":{"jobType":"noop"}}""");
                // the evaluating node records, in database time, when it first saw the condition hold
                Await.until(
                        Duration.ofSeconds(20),
                        () -> pendingSince(b) != null,
                        () -> b.jdbc()
                                .queryForList("SELECT * FROM alert_pending")
                                .toString());
                long since = pendingSince(b);
                Node leader = a.bean(EvaluateAlerts.class).passes() > 0 ? a : b;
                Node other = leader == a ? b : a;
                assertThat(other.bean(EvaluateAlerts.class).passes()).isZero();

                Await.until(Duration.ofSeconds(20), () -> now(other) >= since + 5_000, () -> "database time");
                leader.close();
                long stoppedAt = now(other);
                assertThat(stoppedAt)
                        .as("the leader stopped well before the alert was due, so the takeover is what is tested")
                        .isLessThan(since + forMs - 2_000);
                assertThat(receiver.of("/hook", "slow", "FIRING")).isEmpty();

                Await.until(
                        Duration.ofSeconds(40),
                        () -> !receiver.of("/hook", "slow", "FIRING").isEmpty(),
                        () -> receiver.received.toString());
                long raisedAt =
                        other.jdbc().queryForObject("SELECT raised_at FROM alerts WHERE rule = 'slow'", Long.class);
                assertThat(other.bean(EvaluateAlerts.class).passes()).isGreaterThan(0);
                // forMs counted from when the first node saw it, not from the takeover (which would be >= since + 20 s)
                assertThat(raisedAt - since)
                        .as("raised %d ms after first seen holding", raisedAt - since)
                        .isBetween(forMs - 500, forMs + 4_000);
                assertThat(receiver.of("/hook", "slow", "FIRING")
                                .get(0)
                                .json()
                                .at("/details/holdingSince")
                                .asText())
                        .isNotEmpty();
                assertThat(other.jdbc().queryForObject("SELECT COUNT(*) FROM alert_pending", Integer.class))
                        .isZero();
            } finally {
                a.close();
            }
        }
    }

    private static Long pendingSince(Node node) {
        return node.jdbc()
                .query(
                        "SELECT since_at FROM alert_pending WHERE rule = 'slow'",
                        rs -> rs.next() ? rs.getLong(1) : null);
    }

    private static long now(Node node) {
        return node.jdbc().queryForObject(NOW_MS, Long.class);
    }

    @Test
    void one_node_evaluates_a_rule_at_a_time_and_the_other_takes_over_when_it_stops() throws Exception {
        String db = TestDatabase.freshDatabase("alerts_two");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, String> settings = settings(receiver);
            Node a = Node.start(db, "node-a", settings);
            try (Node b = Node.start(db, "node-b", settings)) {
                Api.Response rule = a.api.post(
                        "/api/v1/alerts/rules",
                        "{\"name\":\"runaway\",\"type\":\"CRON_RUNAWAY\",\"threshold\":100,\"channels\":[\"hook\"]}");
                assertThat(rule.status()).isEqualTo(201);
                String id = ScheduleHttp.create(b.api, """
                        {"name":"often","trigger":{"type":"cron","expression":"0 0/5 * * * ?"},
                         "job":{"jobType":"noop"}}""");
                Await.until(
                        Duration.ofSeconds(20),
                        () -> !receiver.of("/hook", "runaway", "FIRING").isEmpty(),
                        () -> receiver.received.toString());
                // many passes of both nodes later, still one alert, one event, one delivery
                Thread.sleep(3000);
                assertThat(receiver.of("/hook", "runaway", "FIRING")).hasSize(1);
                assertThat(a.jdbc()
                                .queryForObject(
                                        "SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%AlertRaised'",
                                        Integer.class))
                        .isEqualTo(1);
                long passesA = a.bean(EvaluateAlerts.class).passes();
                long passesB = b.bean(EvaluateAlerts.class).passes();
                assertThat(Math.min(passesA, passesB))
                        .as("passes of node-a %d, node-b %d", passesA, passesB)
                        .isZero();
                assertThat(Math.max(passesA, passesB)).isGreaterThan(5);

                Node leader = passesA > 0 ? a : b;
                Node other = leader == a ? b : a;
                leader.close();
                ScheduleHttp.delete(other.api, "/api/v1/schedules/" + id);
                Await.until(
                        Duration.ofSeconds(20),
                        () -> !receiver.of("/hook", "runaway", "RESOLVED").isEmpty(),
                        () -> receiver.received.toString());
                assertThat(other.bean(EvaluateAlerts.class).passes()).isGreaterThan(0);
                assertThat(receiver.of("/hook", "runaway", "RESOLVED")).hasSize(1);
            } finally {
                a.close();
            }
        }
    }

    /** Alerts evaluated every 300 ms, told to the receiver's {@code /hook} as the channel {@code hook}. */
    private static Map<String, String> settings(WebhookReceiver receiver) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("ax.alerts.evaluate-ms", "300");
        settings.put("ax.alerts.event-window-ms", "60000");
        settings.put("ax.alerts.channels.hook.type", "webhook");
        settings.put("ax.alerts.channels.hook.url", receiver.url("/hook"));
        return settings;
    }
}
