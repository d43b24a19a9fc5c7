package io.axscheduler.deploy.security;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.api.security.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The first node on an empty database makes an admin API key and the console user {@code admin} with random secrets,
 * logs them once and writes them to {@code <data dir>/initial-admin.txt} (mode 600). {@code ax.bootstrap.admin-key}
 * (AX_BOOTSTRAP_ADMIN_KEY) and {@code ax.bootstrap.admin-password} (AX_BOOTSTRAP_ADMIN_PASSWORD) give them instead,
 * for scripts and CI: that key is added at any start if it is not known yet (a revoked key stays known), the password
 * makes the user on the first start only (a deleted user stays deleted). There is no default secret.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class Bootstrap implements ApplicationRunner {

    static final Caller BY = new Caller("bootstrap", null, Set.of(Grant.of(Grant.ALL, Role.ADMIN)));
    static final String FILE = "initial-admin.txt";
    static final int MIN_PASSWORD_LENGTH = BootstrapSettings.MIN_PASSWORD_LENGTH;

    private static final Logger log = LoggerFactory.getLogger(Bootstrap.class);
    private static final Set<Grant> ADMIN = Set.of(Grant.of(Grant.ALL, Role.ADMIN));

    private final ApiKeys keys;
    private final ConsoleUsers users;
    private final NamedParameterJdbcTemplate jdbc;
    private final Clock clock;
    private final String givenKey;
    private final String givenPassword;

    private final Path dataDir;
    private final TransactionTemplate transaction;

    Bootstrap(
            ApiKeys keys,
            ConsoleUsers users,
            NamedParameterJdbcTemplate jdbc,
            Clock clock,
            BootstrapSettings settings,
            DataDirectory dataDirectory,
            PlatformTransactionManager transactions) {
        this.transaction = new TransactionTemplate(transactions);
        this.keys = keys;
        this.users = users;
        this.jdbc = jdbc;
        this.clock = clock;
        this.givenKey = settings.adminKey();
        this.givenPassword = settings.adminPassword();
        this.dataDir = Path.of(dataDirectory.dataDir());
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!givenKey.isEmpty() && !keys.hashExists(givenKey)) {
            try {
                keys.create(freeName("bootstrap-admin"), ADMIN, null, BY, givenKey);
                log.info("added the admin API key given in AX_BOOTSTRAP_ADMIN_KEY");
            } catch (IllegalTransitionException madeMeanwhile) {
                // nodes started together with the same settings: one of them adds the key
                if (!keys.hashExists(givenKey)) throw madeMeanwhile;
            }
        }
        // the mark of the first start, the key, the user and the file in one transaction: a node stopped halfway (a
        // probe's restart, a Ctrl-C just after "Started") had marked the start done with neither key nor user made,
        // and no later start made them. The file is written before the commit, so secrets stored are never lost
        // with the log; a node that starts alongside waits on the mark's row lock and then finds it taken.
        String text = transaction.execute(status -> firstStart());
        if (text == null) return;
        log.warn(
                "\n\n==== first start: initial admin credentials (also in {}); they are not shown again ====\n{}"
                        + "use the key as: curl -H 'Authorization: Bearer <key>' ...\n",
                dataDir.resolve(FILE).toAbsolutePath(),
                text);
    }

    private void passwordUnused() {
        if (!givenPassword.isEmpty())
            log.info("AX_BOOTSTRAP_ADMIN_PASSWORD is set but not used: it makes the console user admin on the first"
                    + " start of a database only");
    }

    /** On the first start, makes what is missing and writes the file; the credentials' text, or null. */
    private String firstStart() {
        boolean first = jdbc.update(
                        "INSERT IGNORE INTO security_bootstrap (id, done_at) VALUES (1, :at)",
                        Map.of("at", clock.millis()))
                == 1;
        if (!first) {
            passwordUnused();
            return null;
        }
        String key = null;
        String password = null;
        if (!keys.anyAdmin()) {
            key = ApiKeys.newKey();
            keys.create(freeName("initial-admin"), ADMIN, null, BY, key);
        }
        // the given password makes the user on the first start only, as a random one does: an admin who deleted
        // the user does not find it back at the next start with the password still in the environment
        if (users.exists("admin")) {
            passwordUnused();
        } else {
            if (givenPassword.isEmpty()) {
                password = randomPassword();
                users.create("admin", password, ADMIN, BY);
            } else {
                users.create("admin", givenPassword, ADMIN, BY);
                log.info("added the console user admin with the password given in AX_BOOTSTRAP_ADMIN_PASSWORD");
            }
        }
        if (key == null && password == null) return null;
        StringBuilder text = new StringBuilder("# ax-scheduler initial admin credentials, shown once\n");
        if (key != null) text.append("AX_ADMIN_KEY=").append(key).append('\n');
        if (password != null)
            text.append("console user: admin\nconsole password: ")
                    .append(password)
                    .append('\n');
        Path file = dataDir.resolve(FILE).toAbsolutePath();
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, text);
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("could not write {}: {}", file, e.toString());
        }
        return text.toString();
    }

    private String freeName(String base) {
        String name = base;
        for (int i = 2; keys.nameTaken(name); i++) name = base + "-" + i;
        return name;
    }

    private static String randomPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
