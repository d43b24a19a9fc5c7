package io.axscheduler.deploy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Refuses to start on database sessions that number auto-increment rows in steps of more than one. The event store's
 * {@code globalIndex} is such a column, and the tracking processors take every number between two events for an
 * event not yet committed: with steps of three (a three-member Galera cluster with {@code
 * wsrep_auto_increment_control}, a multi-primary group) every event leaves two such gaps, each token carries
 * thousands of them, the node's event cache copies them per event, and a node under load ran out of heap within
 * minutes. The node's {@code connection-init-sql} asks for steps of one; a server that overrides the session's
 * choice (Galera does while {@code wsrep_auto_increment_control} is on) or an init SQL that was replaced is named
 * here, before anything is written.
 */
final class SessionSettings {

    private SessionSettings() {}

    static void check(DataSource dataSource) {
        long increment;
        boolean galera;
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            // the first connection the node makes: a wrong password, a server down, a database missing show here, and
            // the cause's own words go first (they were the last of a long chain of bean names)
            throw new StartRefused(
                    "cannot connect to the database"
                            + (dataSource instanceof com.zaxxer.hikari.HikariDataSource h
                                    ? " " + withoutSecrets(h.getJdbcUrl()) + " as " + h.getUsername()
                                    : "")
                            + ": " + rootMessage(e),
                    "Check AX_DB_URL, AX_DB_USER and AX_DB_PASSWORD, that the server answers there and that the"
                            + " database exists (docs/operations.md, \"N nodes on one MySQL or MariaDB\").",
                    e);
        }
        try (Connection c = connection;
                Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT @@session.auto_increment_increment")) {
                r.next();
                increment = r.getLong(1);
            }
            galera = galeraAutoIncrementControl(s);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the database session's auto_increment_increment", e);
        }
        if (increment == 1) return;
        throw new IllegalStateException("the database numbers auto-increment rows in steps of " + increment
                + " (auto_increment_increment) even after the node set 1 for its sessions; the event store needs steps"
                + " of 1, or every event leaves gaps that the event processors carry until the node runs out of"
                + " memory. "
                + (galera
                        ? "This is a Galera cluster with wsrep_auto_increment_control=ON: set it OFF on every member"
                                + " (and auto_increment_increment=1) and let all nodes write through one member"
                        : "Set auto_increment_increment=1 on the server, or keep the node's"
                                + " spring.datasource.hikari.connection-init-sql, which sets it")
                + " (docs/operations.md, \"A Galera cluster\")");
    }

    /** A JDBC URL without what may hold a password: its parameters ({@code ?password=}) and user information. */
    static String withoutSecrets(String url) {
        if (url == null) return null;
        String shown = url.replaceAll("[?;].*$", "");
        return shown.replaceAll("//[^/@]*@", "//");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String own = e.getMessage() == null ? "" : e.getMessage();
        String deepest = root.getMessage() == null ? root.toString() : root.getMessage();
        return own.contains(deepest) ? own : own + " (" + deepest + ")";
    }

    /**
     * Whether the server is a Galera member that sets the sessions' steps itself ({@code wsrep_on} and {@code
     * wsrep_auto_increment_control}; MariaDB has both variables, ON and OFF, without Galera too).
     */
    private static boolean galeraAutoIncrementControl(Statement s) {
        try (ResultSet r = s.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN"
                + " ('wsrep_on', 'wsrep_auto_increment_control') AND Value = 'ON'")) {
            int on = 0;
            while (r.next()) on++;
            return on == 2;
        } catch (SQLException notThere) {
            return false;
        }
    }
}
