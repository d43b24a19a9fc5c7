package io.axscheduler.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.StrictJson;
import org.junit.jupiter.api.Test;

/** Jackson's refusals as the API words them: the field, the rule, nothing of Jackson's own. */
class JsonRefusalsTest {

    record Body(Integer priority, Long delayMs, String name) {}

    private static final ObjectMapper JSON = StrictJson.of(new ObjectMapper());

    private static FieldError refusal(String body) {
        try {
            JSON.readValue(body, Body.class);
        } catch (Exception e) {
            return JsonRefusals.describe(e);
        }
        throw new AssertionError("read: " + body);
    }

    @Test
    void a_whole_number_too_large_for_its_field_says_its_range() {
        assertThat(refusal("{\"priority\":99999999999999999999999}"))
                .isEqualTo(new FieldError(
                        "priority", "is out of range: must be a whole number from -2147483648 to 2147483647"));
        assertThat(refusal("{\"delayMs\":9223372036854775808}"))
                .isEqualTo(new FieldError(
                        "delayMs",
                        "is out of range: must be a whole number from -9223372036854775808 to 9223372036854775807"));
        assertThat(refusal("{\"priority\":\"high\"}")).isEqualTo(new FieldError("priority", "must be a whole number"));
    }

    @Test
    void broken_json_is_described_without_the_parsers_source_or_types() {
        FieldError unclosed = refusal("{\"name\":\"x\"");
        assertThat(unclosed.field()).isEqualTo("body");
        assertThat(unclosed.message())
                .startsWith("is not valid JSON: ")
                .doesNotContain("Source")
                .doesNotContain("REDACTED")
                .doesNotContain("`");
        assertThat(refusal("{\"name\": x}").message()).doesNotContain("Source").doesNotContain("`");
    }
}
