package io.axscheduler.deploy;

import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/**
 * Refuses to start against a database whose schema is newer than this build knows: an older node would read and
 * write tables whose meaning has changed under it. Otherwise migrates.
 */
final class SchemaGuard {

    private SchemaGuard() {}

    static void migrate(Flyway flyway) {
        List<String> unknown = Arrays.stream(flyway.info().applied())
                .filter(m ->
                        m.getState() == MigrationState.FUTURE_SUCCESS || m.getState() == MigrationState.FUTURE_FAILED)
                .map(SchemaGuard::describe)
                .toList();
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("the database schema is newer than this ax-scheduler build knows "
                    + "(unknown migrations " + unknown + "); run a build at least as new as the one that migrated it");
        }
        flyway.migrate();
    }

    private static String describe(MigrationInfo m) {
        return "V" + m.getVersion() + " " + m.getDescription();
    }
}
