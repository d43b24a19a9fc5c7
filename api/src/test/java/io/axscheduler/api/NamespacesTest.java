package io.axscheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.security.Grant;
import org.junit.jupiter.api.Test;

class NamespacesTest {

    @Test
    void a_namespace_is_1_to_63_lowercase_letters_digits_or_dashes() {
        assertThat(Namespaces.isValid("team-a1")).isTrue();
        assertThat(Namespaces.isValid("x".repeat(63))).isTrue();
        assertThat(Namespaces.isValid("x".repeat(64))).isFalse();
        assertThat(Namespaces.isValid("")).isFalse();
        assertThat(Namespaces.isValid(null)).isFalse();
        assertThat(Namespaces.isValid("Team")).isFalse();
        assertThat(Namespaces.isValid("a/b")).isFalse();
    }

    @Test
    void only_a_missing_namespace_is_the_default_one_and_a_blank_filter_matches_any() {
        assertThat(Namespaces.orDefault(null)).isEqualTo("default");
        assertThat(Namespaces.orDefault(""))
                .as("kept, so that validation refuses it")
                .isEmpty();
        assertThat(Namespaces.orDefault("team-a")).isEqualTo("team-a");
        assertThat(Namespaces.matches(" ", "team-a")).isTrue();
        assertThat(Namespaces.matches("team-a", "team-a")).isTrue();
        assertThat(Namespaces.matches("team-b", "team-a")).isFalse();
    }

    @Test
    void grants_and_messages_answer_from_the_one_home() {
        assertThat(Grant.DEFAULT_NAMESPACE).isEqualTo(Namespaces.DEFAULT);
        assertThat(Grant.NAMESPACE).isSameAs(Namespaces.PATTERN);
        JobCreated old = new JobCreated(
                "j", null, "noop", java.util.Map.of(), 0, java.time.Instant.EPOCH, null, 1000, null, null, null, null);
        assertThat(old.namespace()).isEqualTo(Namespaces.DEFAULT);
    }
}
