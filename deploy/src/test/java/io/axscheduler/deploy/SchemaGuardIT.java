package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

class SchemaGuardIT {

    @Test
    void a_database_migrated_by_a_newer_build_is_refused() throws Exception {
        String db = TestDatabase.freshDatabase("schema_guard");
        Flyway flyway = Flyway.configure()
                .dataSource(db, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration")
                .load();
        SchemaGuard.migrate(flyway);
        assertThat(flyway.info().applied()).isNotEmpty();
        try (Connection c = TestDatabase.connect(db)) {
            c.createStatement()
                    .execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                            + " checksum, installed_by, execution_time, success) VALUES (999, '999', 'from the future', 'SQL',"
                            + " 'V999__from_the_future.sql', 0, 'test', 1, 1)");
        }

        assertThatThrownBy(() -> SchemaGuard.migrate(flyway))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("newer than this ax-scheduler build")
                .hasMessageContaining("V999");
    }

    @Test
    void migrating_twice_changes_nothing() {
        String db = TestDatabase.freshDatabase("schema_twice");
        Flyway flyway = Flyway.configure()
                .dataSource(db, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration")
                .load();
        SchemaGuard.migrate(flyway);
        int applied = flyway.info().applied().length;
        SchemaGuard.migrate(flyway);
        assertThat(flyway.info().applied()).hasSize(applied);
    }
}
