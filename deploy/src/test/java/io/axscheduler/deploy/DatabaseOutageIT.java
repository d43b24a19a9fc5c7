package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A node whose database goes away answers 503 with Retry-After and problem+json, not 500: the client may try again,
 * and nothing was half-written. A job that ends meanwhile is recorded as it ended once the database is back. The database is a MariaDB server of this test's own (its own data directory and
 * port), killed with SIGKILL under the running node.
 */
class DatabaseOutageIT {

    private static final String BROWSER_ACCEPT =
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
    private static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");

    @Test
    void requests_during_an_outage_answer_503_with_retry_after() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(MARIADBD) && Files.isExecutable(INSTALL_DB), "needs a local MariaDB install");
        Path dir = Files.createTempDirectory("ax-outage-db");
        int port = freePort();
        install(dir);
        Process server = serve(dir, port);
        try {
            String url = "jdbc:mariadb://127.0.0.1:" + port + "/";
            try (Connection c = DriverManager.getConnection(url, "root", "")) {
                c.createStatement().execute("CREATE DATABASE ax_outage");
            }
            try (Node node = Node.start(
                    url + "ax_outage",
                    "node-outage",
                    Map.of("spring.datasource.username", "root", "spring.datasource.password", ""))) {
                assertThat(node.api.submit("{\"jobType\":\"noop\"}")).isNotBlank();
                // a console user signed in before the outage: its requests load their session from the database
                ConsoleSessionsIT.Browser browser =
                        ConsoleSessionsIT.Browser.signedInAs(node, "olga", "default", "VIEWER");
                assertThat(browser.signedInAt(node)).isTrue();
                // a job that ends while the database is away: its outcome waits for the database, and is written
                // before the run deadline (due during the outage) can time the attempt out and run it again
                String sleeper = node.api.submit(
                        "{\"jobType\":\"sleep\",\"params\":{\"ms\":3000},\"timeoutMs\":6000,\"maxRetries\":1}");
                node.api.awaitStatus(sleeper, "RUNNING");

                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                long killedAt = System.currentTimeMillis();

                for (String[] request : new String[][] {
                    {"POST", "/api/v1/jobs", "{\"jobType\":\"noop\"}"}, {"GET", "/api/v1/jobs", null}
                }) {
                    HttpResponse<String> answer = send(node, request[0], request[1], request[2]);
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
                    assertThat(answer.headers().firstValue("Retry-After")).isPresent();
                    assertThat(answer.headers().firstValue("Content-Type").orElse(""))
                            .startsWith("application/problem+json");
                }
                // a monitor scraping the health with its key: the key cannot be checked, and it gets the answer of a
                // caller without credentials, DOWN, not an error in its place
                HttpResponse<String> health = send(node, "GET", "/actuator/health", null);
                assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
                assertThat(health.body()).as(health.body()).contains("\"status\":\"DOWN\"");
                // the session cannot be loaded: the same 503, not an internal error
                for (String path : new String[] {"/api/v1/jobs", "/console", "/login"}) {
                    HttpResponse<String> answer = browser.get(node, path);
                    assertThat(answer.statusCode())
                            .as(path + " " + answer.body())
                            .isEqualTo(503);
                    assertThat(answer.headers().firstValue("Retry-After"))
                            .as(path)
                            .isPresent();
                    assertThat(answer.headers().firstValue("Content-Type").orElse(""))
                            .as(path)
                            .startsWith("application/problem+json");
                    assertThat(answer.body()).contains("the database is unreachable");
                }
                // a visitor not signed in needs no database until the sign-in itself: the page answers at once
                ConsoleSessionsIT.Browser visitor = new ConsoleSessionsIT.Browser();
                HttpResponse<String> console = visitor.get(node, "/console");
                assertThat(console.statusCode()).as(console.body()).isEqualTo(302);
                HttpResponse<String> login = visitor.get(node, "/login");
                assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
                HttpResponse<String> signIn = visitor.postForm(
                        node,
                        "/login",
                        "username=olga&password=olga-password-1&_csrf="
                                + ConsoleSessionsIT.enc(visitor.csrf(node, "/login")));
                assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(503);
                assertThat(signIn.headers().allValues("Retry-After")).hasSize(1);
                assertThat(signIn.body()).contains("the database is unreachable");
                // a browser (it asks for HTML) gets a page saying so, signed in or signing in; the API stays JSON
                browser.accepting(BROWSER_ACCEPT);
                visitor.accepting(BROWSER_ACCEPT);
                for (HttpResponse<String> page : List.of(
                        browser.get(node, "/console/jobs"),
                        visitor.postForm(
                                node,
                                "/login",
                                "username=olga&password=olga-password-1&_csrf="
                                        + ConsoleSessionsIT.enc(visitor.csrf(node, "/login"))))) {
                    assertThat(page.statusCode()).as(page.body()).isEqualTo(503);
                    assertThat(page.headers().firstValue("Content-Type").orElse(""))
                            .startsWith("text/html");
                    assertThat(page.headers().firstValue("Retry-After")).isPresent();
                    assertThat(page.body()).contains("The database is unreachable", "Back to the overview");
                }
                HttpResponse<String> api = browser.get(node, "/api/v1/jobs");
                assertThat(api.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");

                // well past the job's end, its run deadline, and the writer's few tries of old
                Thread.sleep(Math.max(0, killedAt + 35_000 - System.currentTimeMillis()));
                server = serve(dir, port);
                JsonNode ended = node.api.awaitStatus(sleeper, "SUCCEEDED");
                assertThat(ended.path("attempt").asInt()).as(ended.toString()).isEqualTo(1);
                List<String> types = node.api.eventTypes(sleeper);
                assertThat(types).as("ran once, never timed out").doesNotContain("JobTimedOut");
                assertThat(types.stream().filter("JobStarted"::equals).count()).isEqualTo(1);
            }
        } finally {
            server.destroyForcibly();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    /**
     * The server's own temporary directory: a starting mariadbd deletes the temporary tables it finds in its temporary
     * directory, and this one restarts while other tests install and run servers of their own.
     */
    private static Path tmpdir(Path dir) throws Exception {
        return Files.createDirectories(dir.resolve("tmp"));
    }

    private static void install(Path dir) throws Exception {
        Process install = new ProcessBuilder(
                        INSTALL_DB.toString(),
                        "--no-defaults",
                        "--datadir=" + dir.resolve("data"),
                        "--tmpdir=" + tmpdir(dir),
                        "--auth-root-authentication-method=normal",
                        "--user=" + System.getProperty("user.name"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("install.log").toFile())
                .start();
        assertThat(install.waitFor(120, TimeUnit.SECONDS)).isTrue();
    }

    /** The test's MariaDB on {@code dir}'s data, started (again) and answering on {@code port}. */
    private static Process serve(Path dir, int port) throws Exception {
        Process server = new ProcessBuilder(
                        MARIADBD.toString(),
                        "--no-defaults",
                        "--datadir=" + dir.resolve("data"),
                        "--tmpdir=" + tmpdir(dir),
                        "--port=" + port,
                        "--bind-address=127.0.0.1",
                        "--socket=" + dir.resolve("mysql.sock"),
                        "--pid-file=" + dir.resolve("mysqld.pid"),
                        "--skip-log-bin",
                        "--innodb-buffer-pool-size=32M",
                        "--user=" + System.getProperty("user.name"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        new File(dir.resolve("server.log").toString())))
                .start();
        String url = "jdbc:mariadb://127.0.0.1:" + port + "/";
        Await.until(Duration.ofSeconds(60), () -> canConnect(url), () -> "the test's MariaDB did not start");
        return server;
    }

    private static boolean canConnect(String url) {
        try (Connection c = DriverManager.getConnection(url, "root", "")) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static HttpResponse<String> send(Node node, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = node.api
                .authorized(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.api.port + path)))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
