package io.axscheduler.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.query.history.HistoryEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static HistoryEvent event(long sequence, String type, String payload) throws Exception {
        return new HistoryEvent(sequence, type, T0.plusMillis(100 * sequence), JSON.readTree(payload), Map.of());
    }

    @Test
    void a_claim_handed_back_says_why_and_is_no_attempt() throws Exception {
        Timeline timeline = Timeline.of(List.of(
                event(0, "JobCreated", "{\"jobType\":\"echo\",\"runAt\":\"2026-01-01T00:00:00Z\"}"),
                event(1, "JobClaimed", "{\"attempt\":1,\"node\":\"n\",\"leaseUntil\":\"2026-01-01T00:00:30Z\"}"),
                event(2, "JobHandedBack", "{\"attempt\":1,\"reason\":\"NO_WORKER_TOOK_IT\"}"),
                event(3, "JobClaimed", "{\"attempt\":1,\"node\":\"n\",\"leaseUntil\":\"2026-01-01T00:00:31Z\"}"),
                event(4, "JobStarted", "{\"attempt\":1,\"node\":\"n\",\"worker\":\"w\"}"),
                event(5, "JobSucceeded", "{\"attempt\":1,\"result\":\"ok\",\"durationMs\":7}")));

        assertThat(timeline.steps().get(2).detail())
                .isEqualTo("handed back before it started: no worker took it: each was full, refused it or could not"
                        + " be reached");
        assertThat(timeline.attempts()).hasSize(1);
        assertThat(timeline.attempts().get(0).outcome()).isEqualTo("SUCCEEDED");
    }

    @Test
    void an_attempt_given_up_with_its_worker_says_why_and_a_deadline_says_its_phase() throws Exception {
        Timeline timeline = Timeline.of(List.of(
                event(0, "JobCreated", "{\"jobType\":\"echo\",\"runAt\":\"2026-01-01T00:00:00Z\"}"),
                event(1, "JobClaimed", "{\"attempt\":1,\"node\":\"n\",\"leaseUntil\":\"2026-01-01T00:00:30Z\"}"),
                event(2, "JobStarted", "{\"attempt\":1,\"node\":\"n\",\"worker\":\"w\"}"),
                event(3, "JobTimedOut", "{\"attempt\":1,\"phase\":\"RUN\",\"reason\":\"its worker w deregistered\"}"),
                event(4, "JobTimedOut", "{\"attempt\":2,\"phase\":\"RUN\",\"reason\":null}"),
                event(5, "JobTimedOut", "{\"attempt\":3,\"phase\":\"CLAIM\"}")));

        assertThat(timeline.steps().get(3).detail()).isEqualTo("phase RUN: its worker w deregistered");
        assertThat(timeline.steps().get(4).detail()).isEqualTo("phase RUN");
        assertThat(timeline.steps().get(5).detail()).isEqualTo("phase CLAIM");
    }

    @Test
    void the_details_are_said_in_the_pages_language() throws Exception {
        org.springframework.context.support.ResourceBundleMessageSource messages = WhyTest.consoleMessages();
        List<HistoryEvent> events = List.of(
                event(0, "JobCreated", "{\"jobType\":\"echo\",\"runAt\":\"2026-01-01T00:00:00Z\"}"),
                event(1, "JobHandedBack", "{\"attempt\":1,\"reason\":\"NODE_BUSY\"}"),
                event(2, "JobRetryScheduled", "{\"runAt\":\"2026-01-01T00:01:00Z\",\"manual\":true}"));
        for (java.util.Locale locale : List.of(java.util.Locale.ENGLISH, java.util.Locale.SIMPLIFIED_CHINESE)) {
            Timeline said =
                    Timeline.of(events, (key, english, args) -> messages.getMessage(key, args, english, locale));
            Timeline plain = Timeline.of(events);
            if (locale == java.util.Locale.ENGLISH) {
                // the bundle's English is the code's own
                assertThat(said.steps())
                        .extracting(Timeline.Step::detail)
                        .isEqualTo(plain.steps().stream()
                                .map(Timeline.Step::detail)
                                .toList());
            } else {
                assertThat(said.steps())
                        .extracting(Timeline.Step::detail)
                        .containsExactly(
                                "类型 echo，到期 2026-01-01T00:00:00Z",
                                "开始前已交回：节点的推送线程都在忙，或节点正在停止",
                                "到期 2026-01-01T00:01:00Z（手动重试）");
            }
        }
        assertThat(Timeline.of(events).steps().get(1).detail())
                .isEqualTo("handed back before it started: the node's push threads were busy or it was stopping");
    }
}
