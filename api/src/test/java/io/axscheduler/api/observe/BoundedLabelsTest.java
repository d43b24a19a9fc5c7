package io.axscheduler.api.observe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedLabelsTest {

    @Test
    void the_first_values_are_kept_and_later_ones_are_other() {
        BoundedLabels labels = new BoundedLabels(2);
        assertThat(labels.of("a")).isEqualTo("a");
        assertThat(labels.of("b")).isEqualTo("b");
        assertThat(labels.of("c")).isEqualTo(BoundedLabels.OTHER);
        assertThat(labels.of("a")).isEqualTo("a");
        assertThat(labels.of(null)).isEqualTo("none");
    }
}
