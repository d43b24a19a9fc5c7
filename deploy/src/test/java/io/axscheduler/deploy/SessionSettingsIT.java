package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** A node refuses to start on sessions that number auto-increment rows in steps of more than one. */
class SessionSettingsIT {

    @Test
    void sessions_numbering_in_steps_are_refused_naming_the_setting() {
        String db = TestDatabase.freshDatabase("session_steps");
        // what a Galera member with wsrep_auto_increment_control leaves a session at, whatever the session asks
        var steps = new DriverManagerDataSource(
                db + "?sessionVariables=auto_increment_increment=3", TestDatabase.user(), TestDatabase.password());

        assertThatThrownBy(() -> SessionSettings.check(steps))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("steps of 3 (auto_increment_increment)")
                .hasMessageContaining("Set auto_increment_increment=1 on the server");
    }

    @Test
    void a_database_the_node_cannot_reach_is_named_without_its_secrets() {
        var hikari = new com.zaxxer.hikari.HikariDataSource();
        hikari.setJdbcUrl("jdbc:mariadb://127.0.0.1:1/nowhere?password=hunter2&connectTimeout=500");
        hikari.setUsername("someone");
        hikari.setInitializationFailTimeout(-1);
        hikari.setConnectionTimeout(1000);
        try (hikari) {
            assertThatThrownBy(() -> SessionSettings.check(hikari))
                    .isInstanceOf(StartRefused.class)
                    .hasMessageStartingWith(
                            "cannot connect to the database jdbc:mariadb://127.0.0.1:1/nowhere as someone: ")
                    .hasMessageNotContaining("hunter2");
        }
        org.assertj.core.api.Assertions.assertThat(SessionSettings.withoutSecrets("jdbc:mysql://u:pw@db:3306/x?a=b"))
                .isEqualTo("jdbc:mysql://db:3306/x");
    }

    @Test
    void sessions_numbering_one_by_one_pass() {
        String db = TestDatabase.freshDatabase("session_steps_one");
        var plain = new DriverManagerDataSource(db, TestDatabase.user(), TestDatabase.password());

        assertThatCode(() -> SessionSettings.check(plain)).doesNotThrowAnyException();
    }
}
