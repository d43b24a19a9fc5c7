package io.axscheduler.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.query.explain.Reason;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.ResourceBundleMessageSource;

class WhyTest {

    @Test
    void a_template_takes_the_reasons_details_by_name() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("by", "user:tess");
        details.put("reason", "not needed");
        assertThat(Why.fill("被 {by} 取消：{reason}", details)).isEqualTo("被 user:tess 取消：not needed");
    }

    @Test
    void an_alternative_takes_the_first_detail_present_and_a_missing_one_is_a_dash() {
        Map<String, Object> details = Map.of("fireTime", Instant.parse("2026-12-02T10:00:00Z"));
        assertThat(Why.fill("到期时间 {runAt|fireTime}", details)).isEqualTo("到期时间 2026-12-02 10:00:00.000 UTC");
        assertThat(Why.fill("下次：{nextFireTimes|nextFireTime}", details)).isEqualTo("下次：—");
    }

    @Test
    void a_fire_whose_job_was_deleted_says_so_and_links_to_no_job() {
        ResourceBundleMessageSource messages = new ResourceBundleMessageSource();
        messages.setBasenames("console/messages");
        messages.setDefaultEncoding("UTF-8");
        messages.setFallbackToSystemLocale(false);
        Why why = new Why(null, null, messages);
        Map<String, Object> gone = new LinkedHashMap<>();
        gone.put("jobId", "j-1");
        gone.put("jobDeleted", true);
        gone.put("lateMs", 12L);
        Map<String, Object> kept = new LinkedHashMap<>();
        kept.put("jobId", "j-2");
        kept.put("jobStatus", "SUCCEEDED");
        kept.put("lateMs", 3L);
        Instant at = Instant.parse("2026-12-02T10:00:00Z");

        List<Why.Shown> zh = why.shown(
                List.of(
                        new Reason("FIRED", "fired as job j-1 (deleted since)", at, gone),
                        new Reason("FIRED", "fired as job j-2 (SUCCEEDED)", at, kept)),
                Locale.SIMPLIFIED_CHINESE,
                null);

        assertThat(zh.get(0).text()).isEqualTo("已触发为任务 j-1（该任务已超过保留期被删除，任务及其历史均不再保留），晚了 12 毫秒");
        assertThat(zh.get(0).details()).allMatch(d -> d.jobId() == null);
        assertThat(zh.get(1).text()).isEqualTo("已触发为任务 j-2（SUCCEEDED），晚了 3 毫秒");
        assertThat(zh.get(1).details()).anyMatch(d -> "j-2".equals(d.jobId()));
        // a held fire its schedule's deletion dropped
        Map<String, Object> dropped = new LinkedHashMap<>();
        dropped.put("waitingForJobId", "j-3");
        dropped.put("deletedAt", at);
        assertThat(why.shown(List.of(new Reason("QUEUED", "held back …", at, dropped)), Locale.SIMPLIFIED_CHINESE, null)
                        .get(0)
                        .text())
                .isEqualTo("按重叠策略 QUEUE 等待任务 j-3 结束；调度在它触发前已于 2026-12-02 10:00:00.000 UTC 被删除，因此它从未触发");
        // English keeps the answer's own sentence
        assertThat(why.shown(
                                List.of(new Reason("FIRED", "fired as job j-1 (deleted since)", at, gone)),
                                Locale.ENGLISH,
                                null)
                        .get(0)
                        .text())
                .isEqualTo("fired as job j-1 (deleted since)");
    }

    @Test
    void lists_and_maps_are_flattened_and_instants_shown_in_utc() {
        assertThat(Why.text(List.of(Instant.parse("2026-12-02T10:00:00Z"), Instant.parse("2026-12-02T10:00:04Z"))))
                .isEqualTo("2026-12-02 10:00:00.000 UTC, 2026-12-02 10:00:04.000 UTC");
        // a schedule's own zone is shown beside UTC
        assertThat(Why.text(List.of(Instant.parse("2026-12-02T10:00:00Z")), "Asia/Shanghai"))
                .isEqualTo("2026-12-02 10:00:00.000 UTC (2026-12-02 18:00:00 Asia/Shanghai)");
        assertThat(Why.text(Instant.parse("2026-12-02T10:00:00Z"), "UTC")).isEqualTo("2026-12-02 10:00:00.000 UTC");
        assertThat(Why.text(Map.of("node-1", Map.of("threads", 4)))).isEqualTo("node-1: threads: 4");
        assertThat(Why.text(null)).isEqualTo("—");
    }

    @Test
    void a_detail_value_with_dollars_or_backslashes_is_kept_as_it_is() {
        assertThat(Why.fill("{lastError}", Map.of("lastError", "cost $5 \\ path")))
                .isEqualTo("cost $5 \\ path");
    }
}
