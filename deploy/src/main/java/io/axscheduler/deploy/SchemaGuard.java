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

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SchemaGuard.class);

    private SchemaGuard() {}

    static void migrate(Flyway flyway) {
        List<String> unknown = Arrays.stream(flyway.info().applied())
                .filter(m ->
                        m.getState() == MigrationState.FUTURE_SUCCESS || m.getState() == MigrationState.FUTURE_FAILED)
                .map(SchemaGuard::describe)
                .toList();
        if (!unknown.isEmpty()) {
            throw new StartRefused(
                    "the database schema is newer than this ax-scheduler build knows (unknown migrations " + unknown
                            + ")",
                    "Run a build at least as new as the one that migrated it (docs/operations.md, \"Upgrades\").",
                    null);
        }
        long started = System.nanoTime();
        org.flywaydb.core.api.output.MigrateResult result = flyway.migrate();
        // Flyway's own log is quieted to warnings (a line a migration on every test database): one line a start
        if (result.migrationsExecuted > 0) {
            log.info(
                    "database schema migrated from version {} to {} ({} migrations, {} ms)",
                    result.initialSchemaVersion == null ? "none" : result.initialSchemaVersion,
                    result.targetSchemaVersion,
                    result.migrationsExecuted,
                    (System.nanoTime() - started) / 1_000_000);
        } else {
            log.info("database schema at version {}, up to date", result.initialSchemaVersion);
        }
    }

    private static String describe(MigrationInfo m) {
        return "V" + m.getVersion() + " " + m.getDescription();
    }
}
