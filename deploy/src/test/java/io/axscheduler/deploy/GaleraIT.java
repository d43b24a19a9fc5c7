package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The node on a three-member MariaDB Galera cluster of this test's own (docs/operations.md, "A Galera cluster"):
 * Galera's default auto-increment steps are refused before anything is written; with steps of one, a node writing
 * through one member by a failover URL goes on through another when that member is killed, and no job is lost or run
 * twice.
 */
class GaleraIT {

    private static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    private static final List<Path> PROVIDERS =
            List.of(Path.of("/usr/lib/galera/libgalera_smm.so"), Path.of("/usr/lib/libgalera_smm.so"));
    private static final int MEMBERS = 3;
    private static final int BATCHES = 10;
    private static final int PER_BATCH = 50;
    private static final FileAttribute<Set<PosixFilePermission>> OPEN =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x"));
    private static final Map<String, String> ROOT =
            Map.of("spring.datasource.username", "root", "spring.datasource.password", "");

    @Test
    void a_node_is_refused_galeras_default_steps_and_survives_the_loss_of_the_member_it_writes_through()
            throws Exception {
        Path provider = PROVIDERS.stream().filter(Files::exists).findFirst().orElse(null);
        Assumptions.assumeTrue(
                Files.isExecutable(MARIADBD) && Files.isExecutable(INSTALL_DB) && provider != null,
                "needs MariaDB with galera-4");
        // the state transfer's rsync daemon runs as nobody: it must reach the members' data directories
        Path dir = Files.createTempDirectory("ax-galera", OPEN);
        List<Member> members = new ArrayList<>();
        boolean passed = false;
        for (int i = 0; i < MEMBERS; i++) members.add(new Member(dir.resolve("n" + i), i));
        String group =
                members.stream().map(m -> "127.0.0.1:" + m.groupPort).collect(Collectors.joining(",", "gcomm://", ""));
        try {
            for (Member m : members) m.install(provider, group);
            for (Member m : members) m.start(m == members.get(0));
            Member last = members.get(MEMBERS - 1);
            assertThat(query(last.url(""), "SHOW STATUS LIKE 'wsrep_cluster_size'"))
                    .isEqualTo("3");

            // Galera's default: rows numbered in steps of the cluster's size, whatever a session asks
            execute(last.url(""), "SET GLOBAL wsrep_auto_increment_control = ON");
            execute(last.url(""), "CREATE DATABASE ax_galera_default");
            assertThatThrownBy(() -> Node.start(last.url("ax_galera_default"), "node-refused", ROOT))
                    .hasStackTraceContaining("steps of 3")
                    .hasStackTraceContaining("wsrep_auto_increment_control=ON");
            assertThat(query(
                            last.url(""),
                            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'ax_galera_default'"))
                    .as("tables made before the refusal")
                    .isEqualTo("0");
            execute(
                    last.url(""),
                    "SET GLOBAL wsrep_auto_increment_control = OFF, auto_increment_increment = 1,"
                            + " auto_increment_offset = 1");

            // steps of one; every connection of the node goes to the first member that answers
            execute(members.get(0).url(""), "CREATE DATABASE ax_galera");
            String failover = members.stream()
                    .map(m -> "127.0.0.1:" + m.sqlPort)
                    .collect(Collectors.joining(",", "jdbc:mariadb:sequential://", "/ax_galera"));
            try (Node node = Node.start(failover, "node-galera", ROOT)) {
                for (int batch = 0; batch < BATCHES; batch++) {
                    if (batch == BATCHES / 2) members.get(0).kill();
                    submit(node, batch);
                }
                String survivor = members.get(1).url("ax_galera");
                Await.until(
                        Duration.ofSeconds(90),
                        () -> "0".equals(query(survivor, "SELECT COUNT(*) FROM job_queue WHERE status <> 'SUCCEEDED'"))
                                && String.valueOf(BATCHES * PER_BATCH)
                                        .equals(query(survivor, "SELECT COUNT(*) FROM job_queue")),
                        () -> "jobs by status: "
                                + query(
                                        survivor,
                                        "SELECT GROUP_CONCAT(CONCAT(status, ' ', n)) FROM (SELECT status, COUNT(*) n"
                                                + " FROM job_queue GROUP BY status) s"));
                // each job started once, by the store's own record
                assertThat(
                                query(
                                        survivor,
                                        "SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType = 'io.axscheduler.api.job.JobStarted'"))
                        .isEqualTo(String.valueOf(BATCHES * PER_BATCH));
                // numbered one by one (a rolled-back append leaves a gap now and then; steps of 3 would triple it)
                assertThat(
                                query(
                                        survivor,
                                        "SELECT MAX(globalIndex) - MIN(globalIndex) + 1 < 1.5 * COUNT(*) FROM DomainEventEntry"))
                        .as("event indexes one by one")
                        .isEqualTo("1");
            }
            passed = true;
        } finally {
            for (Member m : members) m.kill();
            // three data directories of a few hundred MB: kept only when the test failed, for their logs
            if (passed) deleteRecursively(dir);
        }
    }

    private static void deleteRecursively(Path dir) throws Exception {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    /**
     * A batch of jobs, each with its own key, sent again while the node answers otherwise than 200 (a batch whose
     * transaction was on the killed member): the keys make a second send of a batch that was stored a no-op.
     */
    private static void submit(Node node, int batch) throws InterruptedException {
        String jobs = IntStream.range(0, PER_BATCH)
                .mapToObj(i -> "{\"jobType\":\"noop\",\"jobKey\":\"g-" + batch + "-" + i + "\"}")
                .collect(Collectors.joining(",", "{\"jobs\":[", "]}"));
        Api.Response answer = null;
        for (int attempt = 0; attempt < 30; attempt++) {
            answer = node.api.post("/api/v1/jobs/batch", jobs);
            if (answer.status() == 200) return;
            Thread.sleep(1_000);
        }
        throw new AssertionError("batch " + batch + " answered " + answer.status() + ": " + answer.body());
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "root", "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The first column of the first row (the second for SHOW STATUS), or null when it cannot be read. */
    private static String query(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url, "root", "");
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            if (!r.next()) return null;
            return r.getString(sql.startsWith("SHOW") ? 2 : 1);
        } catch (SQLException e) {
            return null;
        }
    }

    /** One member: its own data directory, SQL, group communication, state transfer ports. */
    private static final class Member {
        final Path dir;
        final int index;
        final int sqlPort;
        final int groupPort;
        final int istPort;
        final int sstPort;
        Process process;

        Member(Path dir, int index) throws Exception {
            this.dir = dir;
            this.index = index;
            this.sqlPort = NodeCrashIT.freePort();
            this.groupPort = NodeCrashIT.freePort();
            this.istPort = NodeCrashIT.freePort();
            this.sstPort = NodeCrashIT.freePort();
        }

        String url(String database) {
            return "jdbc:mariadb://127.0.0.1:" + sqlPort + "/" + database;
        }

        void install(Path provider, String group) throws Exception {
            Files.createDirectories(dir, OPEN);
            String user = System.getProperty("user.name");
            Files.writeString(
                    dir.resolve("my.cnf"),
                    String.join(
                            "\n",
                            "[mariadbd]",
                            "datadir=" + dir.resolve("data"),
                            // a starting mariadbd deletes the temporary tables in its temporary directory: /tmp
                            // would be shared with every other server the tests start meanwhile
                            "tmpdir=" + Files.createDirectories(dir.resolve("tmp")),
                            "socket=" + dir.resolve("sock"),
                            "port=" + sqlPort,
                            "bind-address=127.0.0.1",
                            "pid-file=" + dir.resolve("pid"),
                            "user=" + user,
                            "skip-log-bin",
                            "binlog_format=ROW",
                            "innodb_autoinc_lock_mode=2",
                            "innodb_buffer_pool_size=64M",
                            "wsrep_on=ON",
                            "wsrep_provider=" + provider,
                            "wsrep_cluster_name=ax-galera-it",
                            "wsrep_cluster_address=" + group,
                            "wsrep_node_address=127.0.0.1:" + groupPort,
                            "wsrep_node_name=n" + index,
                            "wsrep_provider_options=\"gmcast.listen_addr=tcp://127.0.0.1:" + groupPort
                                    + ";ist.recv_addr=127.0.0.1:" + istPort + ";gcache.size=64M\"",
                            "wsrep_sst_receive_address=127.0.0.1:" + sstPort,
                            "wsrep_sst_method=rsync",
                            "wsrep_auto_increment_control=OFF",
                            "auto_increment_increment=1",
                            "auto_increment_offset=1",
                            ""));
            Process install = new ProcessBuilder(
                            INSTALL_DB.toString(),
                            "--defaults-file=" + dir.resolve("my.cnf"),
                            "--auth-root-authentication-method=normal")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("install.log").toFile())
                    .start();
            assertThat(install.waitFor(120, TimeUnit.SECONDS)).isTrue();
            // the joiner's rsync daemon writes the state transfer as nobody; the option file must stay private
            Process open = new ProcessBuilder(
                            "chmod", "-R", "a+rwX", dir.resolve("data").toString())
                    .inheritIO()
                    .start();
            assertThat(open.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        void start(boolean first) {
            List<String> command =
                    new ArrayList<>(List.of(MARIADBD.toString(), "--defaults-file=" + dir.resolve("my.cnf")));
            if (first) command.add("--wsrep-new-cluster");
            try {
                process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(
                                new File(dir.resolve("server.log").toString())))
                        .start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            // a joiner answers once its state transfer is done
            Await.until(
                    Duration.ofSeconds(120),
                    () -> "Synced".equals(query(url(""), "SHOW STATUS LIKE 'wsrep_local_state_comment'")),
                    () -> "member n" + index + " did not join; see " + dir.resolve("server.log"));
        }

        /** SIGKILL to the member and whatever it started (a state transfer's rsync daemon). */
        void kill() throws InterruptedException {
            if (process == null) return;
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            process = null;
        }
    }
}
