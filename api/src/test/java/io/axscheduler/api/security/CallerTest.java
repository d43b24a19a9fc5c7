package io.axscheduler.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CallerTest {

    static Caller with(Grant... grants) {
        return new Caller("key:k", null, Set.of(grants));
    }

    @Test
    void a_request_naming_no_namespace_is_in_the_one_namespace_of_all_the_callers_grants() {
        assertThat(with(Grant.of("team-a", Role.EDITOR), Grant.of("team-a", Role.WORKER))
                        .homeNamespace())
                .isEqualTo("team-a");
        assertThat(with(Grant.of("team-a", Role.EDITOR), Grant.of("team-b", Role.VIEWER))
                        .homeNamespace())
                .isEqualTo("default");
        assertThat(with(Grant.of(Grant.ALL, Role.ADMIN)).homeNamespace()).isEqualTo("default");
        // a global grant that is no admin's names no namespace
        assertThat(with(Grant.of(Grant.ALL, Role.ON_BEHALF_OF), Grant.of("team-a", Role.OPERATOR))
                        .homeNamespace())
                .isEqualTo("team-a");
        assertThat(with().homeNamespace()).isEqualTo("default");
        assertThat(Caller.homeNamespace(null)).isEqualTo("default");
    }
}
