package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.alert.EvaluateAlerts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two nodes with the same rule: one evaluates it (the lease holder), the condition raises one alert and one delivery,
 * and when that node stops the other takes over and resolves it.
 */
class AlertsTwoNodesIT {

    @Test
    void one_node_evaluates_a_rule_at_a_time_and_the_other_takes_over_when_it_stops() throws Exception {
        String db = TestDatabase.freshDatabase("alerts_two");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("ax.alerts.evaluate-ms", "300");
            settings.put("ax.alerts.event-window-ms", "60000");
            settings.put("ax.alerts.channels.hook.type", "webhook");
            settings.put("ax.alerts.channels.hook.url", receiver.url("/hook"));
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
}
