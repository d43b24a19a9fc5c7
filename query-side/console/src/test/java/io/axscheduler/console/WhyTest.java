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

    /** The console's message bundles as the application reads them, without the machine's own language. */
    static ResourceBundleMessageSource consoleMessages() {
        ResourceBundleMessageSource messages = new ResourceBundleMessageSource();
        messages.setBasenames("console/messages");
        messages.setDefaultEncoding("UTF-8");
        messages.setFallbackToSystemLocale(false);
        return messages;
    }

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
        ResourceBundleMessageSource messages = consoleMessages();
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
    void a_skip_says_when_it_was_recorded_and_its_reason_once() {
        ResourceBundleMessageSource messages = consoleMessages();
        Why why = new Why(null, null, messages);
        String because = "5 fire times missed since 2026-12-02T10:00:00Z; misfire policy SKIP";
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reason", because);
        details.put("firstSkipped", Instant.parse("2026-12-02T10:00:00Z"));
        Instant at = Instant.parse("2026-12-02T10:05:00Z");

        Why.Shown skip = why.shown(List.of(new Reason("SKIPPED_MISFIRE", because, at, details)), Locale.ENGLISH, null)
                .get(0);
        Why.Shown paused = why.shown(
                        List.of(new Reason("PAUSED", "paused by key:x", at, Map.of())), Locale.ENGLISH, null)
                .get(0);

        assertThat(skip.text()).isEqualTo(because);
        assertThat(skip.details()).extracting(Why.Detail::name).containsExactly("firstSkipped");
        // "missed since" the moment it was recorded read as if the fires were missed from then
        assertThat(skip.sinceLabel()).isEqualTo("recorded at");
        assertThat(paused.sinceLabel()).isEqualTo("since");
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

    /**
     * Every detail an explanation gives has a name in each language: the keys are read from the explaining classes'
     * {@code reason(code, message, since, name, value, …)} calls, so a new detail without a name fails here.
     */
    @Test
    void every_detail_of_an_explanation_has_a_name_in_each_language() throws Exception {
        java.nio.file.Path sources =
                java.nio.file.Path.of("..", "src", "main", "java", "io", "axscheduler", "query", "explain");
        java.util.Set<String> names = new java.util.TreeSet<>();
        List<String> computed = new java.util.ArrayList<>();
        try (var files = java.nio.file.Files.list(sources)) {
            for (java.nio.file.Path file :
                    files.filter(f -> f.toString().endsWith(".java")).toList()) {
                names.addAll(detailNames(withoutComments(java.nio.file.Files.readString(file)), computed));
            }
        }
        // a name this test cannot read would go unchecked
        assertThat(computed)
                .as("detail names that are not plain string literals")
                .isEmpty();
        assertThat(names).as("details found in " + sources.toAbsolutePath()).contains("jobType", "givenUpAt", "node");
        for (Locale locale : List.of(Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE)) {
            java.util.Properties bundle = new java.util.Properties();
            String file = locale == Locale.ENGLISH ? "console/messages.properties" : "console/messages_zh.properties";
            try (var in = new java.io.InputStreamReader(
                    getClass().getClassLoader().getResourceAsStream(file), java.nio.charset.StandardCharsets.UTF_8)) {
                bundle.load(in);
            }
            assertThat(names).as(file).allSatisfy(name -> assertThat(bundle).containsKey("explain.detail." + name));
        }
    }

    /** {@code source} with its comments blanked out (outside string and character literals). */
    private static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        char quote = 0;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == '\\' && i + 1 < source.length()) out.append(source.charAt(++i));
                else if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
                out.append(c);
            } else if (source.startsWith("//", i)) {
                while (i < source.length() && source.charAt(i) != '\n') i++;
                out.append('\n');
            } else if (source.startsWith("/*", i)) {
                int close = source.indexOf("*/", i + 2);
                i = close < 0 ? source.length() : close + 1;
                out.append(' ');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The string literals in the name places (4th, 6th, …) of each {@code reason(…)} call of {@code source}; a name
     * place holding anything else goes to {@code computed}.
     */
    private static List<String> detailNames(String source, List<String> computed) {
        List<String> names = new java.util.ArrayList<>();
        for (int at = source.indexOf("reason("); at >= 0; at = source.indexOf("reason(", at + 1)) {
            // the helper's calls only: not a record's accessor (e.reason()), another name ending so, or its declaration
            char before = at == 0 ? ' ' : source.charAt(at - 1);
            if (before == '.' || Character.isJavaIdentifierPart(before) || source.startsWith("Reason ", at - 7))
                continue;
            List<String> args = new java.util.ArrayList<>();
            StringBuilder arg = new StringBuilder();
            int depth = 1;
            boolean quoted = false;
            for (int i = at + "reason(".length(); i < source.length() && depth > 0; i++) {
                char c = source.charAt(i);
                if (quoted) {
                    arg.append(c);
                    if (c == '\\') arg.append(source.charAt(++i));
                    else if (c == '"') quoted = false;
                } else if (c == '"') {
                    quoted = true;
                    arg.append(c);
                } else if ("([{".indexOf(c) >= 0) {
                    depth++;
                    arg.append(c);
                } else if (")]}".indexOf(c) >= 0) {
                    if (--depth > 0) arg.append(c);
                } else if (c == ',' && depth == 1) {
                    args.add(arg.toString().trim());
                    arg.setLength(0);
                } else {
                    arg.append(c);
                }
            }
            args.add(arg.toString().trim());
            for (int i = 3; i < args.size(); i += 2) {
                String a = args.get(i);
                if (a.matches("\"[A-Za-z]+\"")) names.add(a.substring(1, a.length() - 1));
                else computed.add(a);
            }
        }
        return names;
    }
}
