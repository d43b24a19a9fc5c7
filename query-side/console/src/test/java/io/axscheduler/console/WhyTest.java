package io.axscheduler.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
