package io.axscheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class CausesTest {

    @Test
    void finds_the_outermost_of_a_type_however_deep() {
        SQLException inner = new SQLException("deadlock", "40001", 1213);
        SQLException outer = new SQLException("batch failed", inner);
        RuntimeException wrapped =
                new IllegalStateException("commit failed", new UncheckedIOException(new IOException(outer)));

        assertThat((Object) Causes.find(wrapped, SQLException.class)).isSameAs(outer);
        assertThat(Causes.any(wrapped, t -> t instanceof SQLException s && s.getErrorCode() == 1213))
                .isTrue();
        assertThat(Causes.any(wrapped, InterruptedException.class)).isFalse();
        assertThat((Object) Causes.find(null, SQLException.class)).isNull();
    }

    @Test
    void a_cycle_of_causes_is_walked_once() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);

        assertThat(Causes.any(a, IOException.class)).isFalse();
        assertThat(Causes.any(a, t -> "b".equals(t.getMessage()))).isTrue();
    }
}
