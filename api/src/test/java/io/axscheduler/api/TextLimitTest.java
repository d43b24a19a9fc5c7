package io.axscheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextLimitTest {

    @Test
    void text_within_the_limit_is_kept_whole() {
        assertThat(TextLimit.truncate("short")).isEqualTo("short");
        assertThat(TextLimit.truncate(null)).isNull();
    }

    @Test
    void a_cut_never_splits_a_surrogate_pair() {
        String text = "a".repeat(1_999) + "😀" + "tail";

        String cut = TextLimit.truncate(text);

        assertThat(cut).isEqualTo("a".repeat(1_999));
        assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))).isFalse();
    }
}
