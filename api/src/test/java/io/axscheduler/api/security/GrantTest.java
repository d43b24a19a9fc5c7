package io.axscheduler.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GrantTest {

    @Test
    void a_grant_reads_as_written_and_a_global_role_takes_no_namespace() {
        assertThat(Grant.parse("team-a:OPERATOR")).isEqualTo(new Grant("team-a", Role.OPERATOR));
        assertThat(Grant.parse("team-a:viewer")).isEqualTo(new Grant("team-a", Role.VIEWER));
        assertThat(Grant.parse("ADMIN")).isEqualTo(new Grant(Grant.ALL, Role.ADMIN));
        assertThat(Grant.parse("*:ADMIN")).isEqualTo(new Grant(Grant.ALL, Role.ADMIN));
        // as written it would be every namespace's admin where one namespace was asked for
        assertThatThrownBy(() -> Grant.parse("team-a:ADMIN"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("global role");
        assertThatThrownBy(() -> Grant.parse("Team-A:VIEWER")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Grant.parse("team-a:OWNER")).isInstanceOf(IllegalArgumentException.class);
    }
}
