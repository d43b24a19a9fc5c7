package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The console in a real browser against one whole node, as an operator would use it. */
class ConsoleIT {

    static final String[] STATUSES = {
        "WAITING", "CLAIMED", "RUNNING", "SUCCEEDED", "FAILED", "RETRY_WAITING", "TIMED_OUT", "CANCELED"
    };

    static Node node;
    // one Chromium for the class, started over (signed out, cookies and storage cleared) before each test
    static Browser browser;
    String testName;

    @BeforeAll
    static void start() {
        // an alert channel nothing answers at (port 9, discard, is closed here as on any test machine)
        node = Node.start(
                TestDatabase.freshDatabase("console"),
                "console-node",
                java.util.Map.of(
                        "ax.alerts.channels.down.type", "webhook",
                        "ax.alerts.channels.down.url", "http://127.0.0.1:9/alerts",
                        "ax.alerts.evaluate-ms", "300"));
        browser = new Browser(node.api.port);
    }

    @AfterAll
    static void stop() {
        try {
            browser.close();
        } finally {
            node.close();
        }
    }

    @BeforeEach
    void signIn(TestInfo test) {
        browser.startOver("admin", Node.ADMIN_PASSWORD);
        testName = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void screenshot() {
        browser.screenshot(testName);
    }

    /** Waits until no job is claimed or running, so the counts hold still while they are compared. */
    static void awaitQuiet() {
        Await.until(
                Duration.ofSeconds(30),
                () -> total("CLAIMED") == 0 && total("RUNNING") == 0,
                () -> node.api
                        .get("/api/v1/stats/overview")
                        .body()
                        .path("counts")
                        .toString());
    }

    static long total(String status) {
        return node.api
                .get("/api/v1/jobs?status=" + status + "&size=1")
                .body()
                .path("total")
                .asLong();
    }

    @Test
    void overview_counts_match_the_api_after_submitting_jobs() {
        for (int i = 0; i < 4; i++) node.api.submit("{\"jobType\":\"noop\"}");
        String failed = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0}");
        node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        node.api.awaitStatus(failed, "FAILED");
        awaitQuiet();

        browser.open("/console");
        for (String status : STATUSES) {
            assertThat(browser.text("count-" + status))
                    .as("count of %s", status)
                    .isEqualTo(Long.toString(total(status)));
        }
        assertThat(total("SUCCEEDED")).isGreaterThanOrEqualTo(4);
        assertThat(total("FAILED")).isGreaterThanOrEqualTo(1);
        assertThat(browser.text("oldest-waiting")).isNotBlank();
        assertThat(browser.text("lag-p99")).startsWith("≤");
        // the JSON the page is made from says the same
        JsonNode counts = node.api.get("/api/v1/stats/overview").body().path("counts");
        for (String status : STATUSES) assertThat(counts.path(status).asLong()).isEqualTo(total(status));
    }

    @Test
    void the_overview_updates_without_a_reload_when_jobs_finish() {
        awaitQuiet();
        browser.open("/console");
        browser.await(
                Duration.ofSeconds(10), d -> browser.find("count-SUCCEEDED").isDisplayed());
        // the live stream is open before anything happens
        browser.await(
                Duration.ofSeconds(10),
                d -> !d.findElements(By.cssSelector("#live.on")).isEmpty());
        long before = Long.parseLong(browser.text("count-SUCCEEDED"));
        browser.driver.executeScript("window.axNotReloaded = true");

        List<String> ids = new ArrayList<>();
        // long enough a run that a refresh lands inside it on a loaded machine too (a refresh waits out a 500 ms
        // throttle, then the fragment's request; 1 s runs were missed once in CI)
        for (int i = 0; i < 3; i++) ids.add(node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":4000}}"));
        browser.await(Duration.ofSeconds(10), d -> Long.parseLong(browser.text("count-RUNNING")) > 0);
        for (String id : ids) node.api.awaitStatus(id, "SUCCEEDED");
        long after = total("SUCCEEDED");

        // within 2 s of the API, without a reload
        browser.await(Duration.ofSeconds(2), d -> Long.parseLong(browser.text("count-SUCCEEDED")) >= after);
        assertThat(Long.parseLong(browser.text("count-SUCCEEDED"))).isGreaterThanOrEqualTo(before + 3);
        assertThat(browser.driver.executeScript("return window.axNotReloaded === true"))
                .isEqualTo(true);
        // the update swaps in the figures only, not the page's heading again
        assertThat(browser.driver.findElements(By.tagName("h1"))).hasSize(1);
    }

    @Test
    void a_narrow_window_scrolls_the_job_list_not_the_page() {
        for (int i = 0; i < 3; i++)
            node.api.submit("{\"jobType\":\"noop\",\"jobKey\":\"narrow-" + i + "-"
                    + "a-key-long-enough-to-make-the-row-wide-" + System.nanoTime() + "\"}");
        org.openqa.selenium.Dimension before = browser.driver.manage().window().getSize();
        try {
            browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(500, 900));
            browser.open("/console/jobs");
            browser.find("job-list");
            Number page = (Number) browser.driver.executeScript(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
            assertThat(page.longValue()).as("the page's sideways overflow").isLessThanOrEqualTo(0);
            Number list = (Number)
                    browser.driver.executeScript(
                            "const t = document.querySelector(\"[data-testid='job-list']\"); return t.scrollWidth - t.clientWidth");
            assertThat(list.longValue()).as("the list scrolls inside itself").isPositive();
        } finally {
            browser.driver.manage().window().setSize(before);
        }
    }

    @Test
    void a_jobs_timeline_shows_its_four_events_in_order() {
        String jobId = node.api.submit("{\"jobType\":\"noop\"}");
        node.api.awaitStatus(jobId, "SUCCEEDED");

        browser.open("/console/jobs/" + jobId);
        // the page's live updates may swap an element while it is read: read again until a read holds
        List<List<String>> types = new java.util.ArrayList<>();
        browser.await(Duration.ofSeconds(10), d -> {
            try {
                types.add(browser.all("timeline-event").stream()
                        .map(e -> e.getAttribute("data-type"))
                        .toList());
                return "SUCCEEDED".equals(browser.find("job-status").getAttribute("data-status"));
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        });
        assertThat(types.get(types.size() - 1))
                .containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
        assertThat(browser.all("attempt")).hasSize(1);
        // the state as of its first event: waiting
        // a live update may swap the link between finding and clicking it: find it again until a click lands
        browser.await(Duration.ofSeconds(10), d -> {
            d.findElements(By.cssSelector("[data-testid='timeline-event'] a.asof"))
                    .get(0)
                    .click();
            return true;
        });
        String asOfStatus = browser.await(
                Duration.ofSeconds(10),
                d -> d.findElements(By.cssSelector("[data-testid='asof-status']")).stream()
                        .map(e -> e.getText().trim())
                        .filter(t -> !t.isEmpty())
                        .findFirst()
                        .orElse(null));
        assertThat(asOfStatus).isEqualTo("Waiting");
    }

    @Test
    void retry_and_cancel_from_the_console_change_the_job() {
        String failing = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":0}");
        node.api.awaitStatus(failing, "FAILED");
        browser.open("/console/jobs/" + failing);
        browser.click("job-retry");
        browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent())
                .accept();
        browser.await(Duration.ofSeconds(10), d -> !browser.all("flash-done").isEmpty());
        node.api.awaitStatus(failing, "SUCCEEDED");
        browser.open("/console/jobs/" + failing);
        // the stream may bring the retry's last events after the page loaded, swapping the timeline while it is read
        browser.await(
                Duration.ofSeconds(10),
                d -> browser.all("timeline-event").stream()
                        .map(e -> e.getAttribute("data-type"))
                        .toList()
                        .contains("JobRetryScheduled"));
        JsonNode retried = node.api.get("/api/v1/jobs/" + failing + "/history").body();
        assertThat(retried.toString()).contains("\"actor\":\"user:admin\"");

        String waiting = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        browser.open("/console/jobs/" + waiting);
        browser.find("job-cancel-reason").sendKeys("not needed");
        browser.click("job-cancel");
        browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent())
                .accept();
        node.api.awaitStatus(waiting, "CANCELED");
        browser.await(
                Duration.ofSeconds(5),
                d -> "CANCELED".equals(browser.find("job-status").getAttribute("data-status")));

        // several at once from the list
        String a = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000,\"jobKey\":\"bulk-a\"}");
        String b = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000,\"jobKey\":\"bulk-b\"}");
        browser.open("/console/jobs?status=WAITING&type=noop");
        for (WebElement row : browser.all("job-row")) {
            String id = row.getAttribute("data-job-id");
            if (id.equals(a) || id.equals(b))
                row.findElement(By.cssSelector("[data-testid='job-select']")).click();
        }
        browser.find("bulk-cancel").click();
        browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent())
                .accept();
        browser.await(Duration.ofSeconds(5), d -> !browser.all("flash-done").isEmpty());
        node.api.awaitStatus(a, "CANCELED");
        node.api.awaitStatus(b, "CANCELED");
    }

    @Test
    void the_cron_field_shows_next_fires_as_you_type_and_refuses_a_bad_expression() {
        browser.open("/console/schedules/new");
        browser.find("schedule-name").sendKeys("console-cron");
        browser.find("cron-zone").clear();
        browser.find("cron-zone").sendKeys("Asia/Shanghai");
        WebElement cron = browser.find("cron-input");
        cron.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        cron.sendKeys("0 */15 * * * ?");
        awaitPreviewOf("0 */15 * * * ?");
        assertThat(browser.all("cron-next-fire")).hasSize(5);
        assertThat(browser.text("cron-fires-per-day")).isEqualTo("96");
        assertThat(browser.text("cron-warning")).contains("96");
        assertThat(browser.text("cron-description")).isNotBlank();
        assertThat(browser.find("schedule-save").isEnabled()).isTrue();

        cron.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        cron.sendKeys("0 61 * * * ?");
        browser.await(
                Duration.ofSeconds(5),
                d -> !browser.text("cron-error").isEmpty()
                        && !browser.text("cron-error").endsWith("…"));
        assertThat(browser.all("cron-next-fire")).isEmpty();
        assertThat(browser.find("schedule-save").isEnabled()).isFalse();
        browser.screenshot(testName + "-refused");

        cron.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        cron.sendKeys("0 5 1 * * ?");
        awaitPreviewOf("0 5 1 * * ?");
        assertThat(browser.all("cron-next-fire")).hasSize(5);
        assertThat(browser.text("cron-fires-per-day")).isEqualTo("1");
        assertThat(browser.text("cron-warning")).isEmpty();
        browser.find("schedule-save").click();
        browser.await(
                Duration.ofSeconds(10), d -> !browser.all("schedule-state").isEmpty());
        String scheduleId = browser.driver.getCurrentUrl().replaceAll(".*/console/schedules/", "");
        JsonNode schedule = node.api.get("/api/v1/schedules/" + scheduleId).body();
        assertThat(schedule.path("name").asText()).isEqualTo("console-cron");
        assertThat(schedule.path("trigger").path("expression").asText()).isEqualTo("0 5 1 * * ?");
        assertThat(schedule.path("timezone").asText()).isEqualTo("Asia/Shanghai");
        assertThat(node.api
                        .get("/api/v1/schedules/" + scheduleId + "/history")
                        .body()
                        .toString())
                .contains("\"actor\":\"user:admin\"");
    }

    @Test
    void saving_the_edit_form_keeps_every_job_field_the_user_did_not_change() {
        Api.Response worker = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"billing\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"bill\"],\"capacity\":1}");
        assertThat(worker.status()).as(worker.body().toString()).isEqualTo(201);
        Api.Response made = node.api.post("/api/v1/schedules", """
                {"name":"edit-me","trigger":{"type":"cron","expression":"0 0 3 1 1 ?","timezone":"GMT+8"},
                 "job":{"jobType":"bill","params":{"month":"2026-11"},"priority":7,"maxRetries":5,
                        "backoff":{"delaysMs":[5000,10000]},"timeoutMs":12345,"executorApp":"billing",
                        "routeStrategy":"FAILOVER"},
                 "misfirePolicy":"SKIP","overlapPolicy":"QUEUE"}""");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        String scheduleId = made.text("scheduleId");
        JsonNode before = node.api.get("/api/v1/schedules/" + scheduleId).body();

        browser.open("/console/schedules/" + scheduleId + "/edit");
        // a zone the browser does not know (Java does): the preview still lists the fires, as instants
        awaitPreviewOf("0 0 3 1 1 ?");
        assertThat(browser.all("cron-next-fire")).hasSize(5);
        browser.find("schedule-name").sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        browser.find("schedule-name").sendKeys("edited");
        browser.find("schedule-save").click();
        browser.await(
                Duration.ofSeconds(10), d -> !browser.all("schedule-state").isEmpty());

        JsonNode after = node.api.get("/api/v1/schedules/" + scheduleId).body();
        assertThat(after.path("name").asText()).isEqualTo("edited");
        assertThat(after.path("job")).as("the job template").isEqualTo(before.path("job"));
        assertThat(after.path("trigger")).isEqualTo(before.path("trigger"));
        assertThat(after.path("misfirePolicy").asText()).isEqualTo("SKIP");
        assertThat(after.path("overlapPolicy").asText()).isEqualTo("QUEUE");
        assertThat(after.path("job").path("priority").asInt()).isEqualTo(7);

        // run now on a schedule deleted meanwhile (another tab, another user): the refusal is said
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + scheduleId);
        browser.find("schedule-trigger").click();
        browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent())
                .accept();
        org.openqa.selenium.Alert refused = browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent());
        assertThat(refused.getText()).as("the API's refusal").containsIgnoringCase("deleted");
        refused.accept();
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker.text("workerId"));
    }

    @Test
    void the_job_page_says_why_and_keeps_saying_it_as_the_job_moves() {
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":1500},\"delayMs\":4000}");
        browser.open("/console/jobs/" + jobId);
        assertThat(reasonCodes()).contains("WAITING_UNTIL_DUE");
        assertThat(browser.text("why-text")).isNotBlank();
        browser.driver.executeScript("window.axNotReloaded = true");
        assertThat(browser.all("job-cancel")).hasSize(1);
        // a reason being typed outlives the live updates while Cancel is offered
        browser.find("job-cancel-reason").sendKeys("half typed");

        // the live updates bring the reasons along: running, then succeeded, without a reload
        browser.await(Duration.ofSeconds(20), d -> reasonCodes().contains("RUNNING"));
        assertThat(browser.find("job-cancel-reason").getAttribute("value")).isEqualTo("half typed");
        browser.await(Duration.ofSeconds(20), d -> reasonCodes().contains("SUCCEEDED"));
        assertThat(browser.driver.executeScript("return window.axNotReloaded === true"))
                .isEqualTo(true);
        assertThat(browser.text("why-title")).isEqualTo("Succeeded");
        // and the actions with them: an ended job offers no Cancel
        browser.await(Duration.ofSeconds(5), d -> browser.all("job-cancel").isEmpty());

        browser.open("/console/jobs/" + jobId + "?lang=zh-CN");
        assertThat(browser.text("why-title")).isEqualTo("成功");
        browser.open("/console/jobs/" + jobId + "?lang=en");
    }

    @Test
    void the_schedule_page_says_why_it_fired_or_did_not_at_a_picked_instant() {
        Api.Response made = node.api.post(
                "/api/v1/schedules",
                "{\"name\":\"why-rate\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":4000},"
                        + "\"job\":{\"jobType\":\"noop\"}}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        String scheduleId = made.text("scheduleId");
        JsonNode fired = org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> {
                            for (JsonNode e : node.api
                                    .get("/api/v1/schedules/" + scheduleId + "/history")
                                    .body()
                                    .path("events")) {
                                if (e.path("type").asText().equals("ScheduleFired")) return e.path("payload");
                            }
                            return null;
                        },
                        java.util.Objects::nonNull);
        String jobId = fired.path("jobId").asText();
        java.time.Instant fireTime =
                java.time.Instant.parse(fired.path("fireTime").asText());

        // from the fires table: why that fire happened, with a link to its job
        browser.open("/console/schedules/" + scheduleId);
        assertThat(browser.find("why-at").getAttribute("value")).isNotBlank();
        browser.all("schedule-fire").stream()
                .filter(r -> "ScheduleFired".equals(r.getAttribute("data-type")))
                .filter(r -> r.getText().contains(jobId))
                .findFirst()
                .orElseThrow()
                .findElement(By.cssSelector("[data-testid='fire-why']"))
                .click();
        browser.await(Duration.ofSeconds(10), d -> reasonCodes().contains("FIRED"));
        browser.screenshot(testName + "-fired");
        browser.find("why-link-jobId").click();
        browser.await(Duration.ofSeconds(10), d -> jobId.equals(browser.text("job-id")));

        // the picker: half an interval after that fire is no fire time, and the answer names the next ones
        browser.open("/console/schedules/" + scheduleId);
        WebElement at = browser.find("why-at");
        browser.driver.executeScript(
                "arguments[0].value = arguments[1]",
                at,
                java.time.LocalDateTime.ofInstant(fireTime.plusMillis(2000), java.time.ZoneOffset.UTC)
                        .toString());
        browser.find("why-ask").click();
        browser.await(Duration.ofSeconds(10), d -> reasonCodes().contains("NOT_A_FIRE_TIME"));
        assertThat(browser.find("why-detail-nextFireTimes").getText()).contains(" UTC");

        // paused: a coming fire time is answered PAUSED, by whom
        assertThat(node.api
                        .post("/api/v1/schedules/" + scheduleId + "/pause", "{}")
                        .status())
                .isEqualTo(200);
        java.time.Instant next = fireTime.plusMillis(4000L * 100);
        browser.open("/console/schedules/" + scheduleId + "?at=" + next);
        assertThat(reasonCodes()).contains("PAUSED");
        assertThat(browser.find("why-detail-by").getText()).contains("key:");
        browser.open("/console/schedules/" + scheduleId + "?at=" + next + "&lang=zh-CN");
        assertThat(browser.text("why-title")).isEqualTo("已暂停");
        browser.open("/console?lang=en");
    }

    /**
     * The codes of the reasons the page shows now, read in one script: the live updates swap the reasons' elements,
     * so a code read element by element after finding them may meet one already replaced.
     */
    @SuppressWarnings("unchecked")
    private List<String> reasonCodes() {
        return (List<String>) browser.driver.executeScript(
                "return Array.from(document.querySelectorAll(\"[data-testid='why-reason']\"))"
                        + ".map(e => e.getAttribute('data-code'));");
    }

    @Test
    void a_fixed_rate_schedule_made_in_the_form_previews_its_fires_and_fires() {
        browser.open("/console/schedules/new");
        browser.find("schedule-name").sendKeys("console-rate");
        org.openqa.selenium.support.ui.Select kind =
                new org.openqa.selenium.support.ui.Select(browser.find("trigger-type"));

        // a once trigger in the past is refused as you type
        kind.selectByValue("once");
        browser.driver.executeScript("arguments[0].value = '2020-01-01T00:00:00'", browser.find("once-at"));
        browser.driver.executeScript("arguments[0].dispatchEvent(new Event('input'))", browser.find("once-at"));
        browser.await(Duration.ofSeconds(5), d -> browser.text("cron-error").contains("trigger.at"));
        assertThat(browser.find("schedule-save").isEnabled()).isFalse();
        assertThat(browser.find("cron-input").isDisplayed()).isFalse();

        kind.selectByValue("fixedRate");
        WebElement interval = browser.find("rate-interval");
        interval.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        interval.sendKeys("2000");
        browser.await(Duration.ofSeconds(5), d -> {
            String shown = browser.find("cron-preview").getAttribute("data-trigger");
            return shown != null && shown.contains("\"intervalMs\":2000");
        });
        assertThat(browser.all("cron-next-fire")).hasSize(5);
        assertThat(browser.text("cron-fires-per-day")).isEqualTo("43200");
        assertThat(browser.text("cron-description")).isEqualTo("every 2 seconds");
        assertThat(browser.text("cron-warning")).contains("43200");
        // the previewed fires are an interval apart
        List<java.time.Instant> fires = browser.all("cron-next-fire").stream()
                .map(e -> e.getText().replaceAll(".*\\((.*)\\)$", "$1"))
                .map(java.time.Instant::parse)
                .toList();
        assertThat(Duration.between(fires.get(0), fires.get(1))).isEqualTo(Duration.ofMillis(2000));
        browser.screenshot(testName + "-preview");

        browser.find("schedule-save").click();
        browser.await(
                Duration.ofSeconds(10), d -> !browser.all("schedule-state").isEmpty());
        String scheduleId = browser.driver.getCurrentUrl().replaceAll(".*/console/schedules/", "");
        JsonNode schedule = node.api.get("/api/v1/schedules/" + scheduleId).body();
        assertThat(schedule.path("trigger").path("type").asText()).isEqualTo("fixedRate");
        assertThat(schedule.path("trigger").path("intervalMs").asLong()).isEqualTo(2000);

        // it fires: the schedule page shows its fires and their jobs
        browser.await(Duration.ofSeconds(30), d -> {
            browser.open("/console/schedules/" + scheduleId);
            return browser.all("schedule-fire").stream()
                            .anyMatch(r -> "ScheduleFired".equals(r.getAttribute("data-type")))
                    && !browser.all("schedule-job").isEmpty();
        });
        node.api.post("/api/v1/schedules/" + scheduleId + "/pause", "{}");

        // the edit form comes back with the fixed rate
        browser.open("/console/schedules/" + scheduleId + "/edit");
        assertThat(new org.openqa.selenium.support.ui.Select(browser.find("trigger-type"))
                        .getFirstSelectedOption()
                        .getAttribute("value"))
                .isEqualTo("fixedRate");
        assertThat(browser.find("rate-interval").getAttribute("value")).isEqualTo("2000");
    }

    @Test
    void a_user_with_some_namespaces_sees_only_those_and_acts_only_where_allowed() {
        Api.Response made = node.api.post(
                "/api/v1/admin/users",
                "{\"username\":\"tess\",\"password\":\"tess-password-12\",\"grants\":["
                        + "{\"namespace\":\"team-a\",\"role\":\"OPERATOR\"},"
                        + "{\"namespace\":\"team-b\",\"role\":\"VIEWER\"}]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        String waitingA = node.api.submit("{\"namespace\":\"team-a\",\"jobType\":\"noop\",\"delayMs\":600000}");
        node.api.submit("{\"namespace\":\"team-a\",\"jobType\":\"noop\",\"delayMs\":600000}");
        String waitingB = node.api.submit("{\"namespace\":\"team-b\",\"jobType\":\"noop\",\"delayMs\":600000}");
        String hidden = node.api.submit("{\"namespace\":\"team-c\",\"jobType\":\"noop\",\"delayMs\":600000}");
        node.api.submit("{\"namespace\":\"team-c\",\"jobType\":\"sleep\",\"delayMs\":600000}");
        String failedA = node.api.submit(
                "{\"namespace\":\"team-a\",\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":0}");
        String failedB = node.api.submit(
                "{\"namespace\":\"team-b\",\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":0}");
        node.api.awaitStatus(failedA, "FAILED");
        node.api.awaitStatus(failedB, "FAILED");
        String scheduleB = schedule("team-b");
        String scheduleC = schedule("team-c");
        browser.startOver("tess", "tess-password-12");

        // lists: only team-a and team-b
        browser.open("/console/jobs?size=200");
        List<String> rows = browser.all("job-row").stream()
                .map(r -> r.getAttribute("data-job-id"))
                .toList();
        assertThat(rows).contains(waitingA, waitingB, failedA, failedB).doesNotContain(hidden);
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-namespace")))
                .containsOnly("team-a", "team-b");
        browser.open("/console/jobs?status=WAITING&type=noop");
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-job-id")))
                .contains(waitingA, waitingB)
                .doesNotContain(hidden);
        browser.open("/console/jobs?namespace=team-c");
        assertThat(browser.all("job-row")).isEmpty();
        browser.open("/console/schedules");
        assertThat(browser.all("schedule-row").stream().map(r -> r.getAttribute("data-schedule-id")))
                .contains(scheduleB)
                .doesNotContain(scheduleC);
        // the list's instants say their zone, as the schedule page's do
        assertThat(browser.all("schedule-next-fire").stream()
                        .map(e -> e.getText().trim()))
                .isNotEmpty()
                .allMatch(t -> t.equals("—") || t.endsWith(" UTC"))
                .anyMatch(t -> t.endsWith(" UTC"));
        assertThat(browser.all("schedule-new")).isEmpty();
        browser.open("/console/audit");
        assertThat(browser.all("audit-row")).isNotEmpty();
        assertThat(browser.all("audit-row").stream().map(r -> r.getAttribute("data-aggregate")))
                .doesNotContain(hidden, scheduleC);

        // the overview counts what the user may see: three waiting, two failed
        browser.open("/console");
        assertThat(browser.text("count-WAITING")).isEqualTo("3");
        assertThat(browser.text("count-FAILED")).isEqualTo("2");
        JsonNode counts =
                node.api.get("/api/v1/stats/overview?namespace=team-c").body().path("counts");
        assertThat(counts.path("WAITING").asLong()).isEqualTo(2);

        // what it may not see does not exist for it
        browser.open("/console/jobs/" + hidden);
        assertThat(browser.driver.getPageSource()).contains("404").doesNotContain("timeline");
        browser.open("/console/schedules/" + scheduleC);
        assertThat(browser.driver.getPageSource()).contains("404");

        // an operator in team-a gets the buttons there; a viewer in team-b none, and the server refuses anyway
        browser.open("/console/jobs/" + failedA);
        assertThat(browser.all("job-retry")).hasSize(1);
        browser.open("/console/jobs/" + failedB);
        assertThat(browser.all("why-reason")).isNotEmpty();
        assertThat(browser.all("job-retry")).isEmpty();
        assertThat(browser.all("job-cancel")).isEmpty();
        assertThat(post("/console/jobs/" + failedB + "/retry")).isEqualTo(403);
        assertThat(post("/console/jobs/" + hidden + "/cancel")).isEqualTo(404);
        browser.open("/console/schedules/" + scheduleB);
        for (String action : List.of("schedule-edit", "schedule-pause", "schedule-trigger", "schedule-delete"))
            assertThat(browser.all(action)).as(action).isEmpty();
        assertThat(post("/console/schedules/" + scheduleB + "/pause")).isEqualTo(403);
        assertThat(node.api.get("/api/v1/jobs/" + failedB).text("status")).isEqualTo("FAILED");
        assertThat(node.api.get("/api/v1/schedules/" + scheduleB).text("state")).isEqualTo("ACTIVE");
        // a bulk retry takes the job it may retry and refuses the other
        browser.open("/console/jobs?status=FAILED&type=flaky");
        assertThat(browser.all("job-row").stream()
                        .filter(r -> r.getAttribute("data-job-id").equals(failedB))
                        .flatMap(r -> r.findElements(By.cssSelector("[data-testid='job-select']")).stream()))
                .isEmpty();
        browser.screenshot(testName + "-jobs");
    }

    /** A daily schedule in {@code namespace}, made with the admin key. */
    private static String schedule(String namespace) {
        Api.Response made = node.api.post(
                "/api/v1/schedules",
                "{\"namespace\":\"" + namespace + "\",\"name\":\"daily-" + namespace + "\",\"trigger\":"
                        + "{\"type\":\"cron\",\"expression\":\"0 0 3 * * ?\"},\"job\":{\"jobType\":\"noop\"}}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        return made.text("scheduleId");
    }

    /** The status of a POST the signed-in page sends with its CSRF token, as a form of the page would. */
    private long post(String path) {
        Object status = browser.driver.executeAsyncScript(
                "var done = arguments[arguments.length - 1];"
                        + "var h = {'Accept': 'application/json'};"
                        + "h[document.querySelector('meta[name=\"ax-csrf-header\"]').content] ="
                        + " document.querySelector('meta[name=\"ax-csrf-token\"]').content;"
                        + "fetch(arguments[0], {method: 'POST', headers: h, redirect: 'manual'})"
                        + ".then(function (r) { done(r.status); }, function (e) { done(-1); });",
                path);
        return ((Number) status).longValue();
    }

    /** Waits until the preview shows the answer for {@code expression}, not for what was typed before it. */
    private void awaitPreviewOf(String expression) {
        browser.await(
                Duration.ofSeconds(5),
                d -> expression.equals(browser.find("cron-preview").getAttribute("data-expression")));
    }

    @Test
    void the_job_list_pages_by_cursor_and_filters() {
        Set<String> submitted = new HashSet<>();
        for (int i = 0; i < 7; i++)
            submitted.add(node.api.submit(
                    "{\"jobType\":\"sleep\",\"params\":{\"ms\":10},\"delayMs\":600000,\"jobKey\":\"paged-" + i
                            + "\"}"));

        browser.open("/console/jobs?type=sleep&status=WAITING&size=3");
        List<String> seen = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        while (true) {
            List<String> page = browser.all("job-row").stream()
                    .map(r -> r.getAttribute("data-job-id"))
                    .toList();
            pageSizes.add(page.size());
            seen.addAll(page);
            if (browser.all("next-page").isEmpty()) break;
            browser.follow("next-page");
        }
        assertThat(pageSizes).containsExactly(3, 3, 1);
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(submitted);
        // newest first: ids are time-ordered
        assertThat(seen).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        // the same filter from the form, oldest first
        browser.open("/console/jobs");
        browser.find("filter-type").sendKeys("sleep");
        new org.openqa.selenium.support.ui.Select(browser.find("filter-status")).selectByValue("WAITING");
        new org.openqa.selenium.support.ui.Select(browser.find("filter-sort")).selectByValue("oldest");
        browser.follow("filter-apply");
        List<String> oldestFirst = browser.all("job-row").stream()
                .map(r -> r.getAttribute("data-job-id"))
                .toList();
        assertThat(oldestFirst).hasSize(7).isSorted();
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-status")))
                .containsOnly("WAITING");

        // a status alone (one range per type, merged) and a type alone (one range per status, merged)
        browser.open("/console/jobs?status=WAITING&size=200");
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-job-id")))
                .containsAll(submitted);
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-status")))
                .containsOnly("WAITING");
        browser.open("/console/jobs?type=sleep&size=200");
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-job-id")))
                .containsAll(submitted);
        // a status with none of them, and a search by job key
        browser.open("/console/jobs?type=sleep&status=CANCELED");
        assertThat(browser.all("job-row")).isEmpty();
        assertThat(browser.all("no-jobs")).hasSize(1);
        // a job key is unique within its namespace: the same key in another namespace is another job, found too
        String otherTeams = node.api.submit(
                "{\"jobType\":\"sleep\",\"delayMs\":600000,\"jobKey\":\"paged-4\",\"namespace\":\"team-search\"}");
        browser.open("/console/jobs");
        browser.find("filter-q").sendKeys("paged-4", Keys.ENTER);
        browser.await(Duration.ofSeconds(5), d -> browser.driver.getCurrentUrl().contains("q=paged-4"));
        assertThat(browser.all("job-row").stream().map(r -> r.getAttribute("data-job-id")))
                .hasSize(2)
                .contains(otherTeams);
        assertThat(browser.all("job-row").get(0).getText()).contains("paged-4");
    }

    @Test
    void the_nodes_page_says_when_a_node_does_not_scan() {
        browser.open("/console/nodes");
        assertThat(browser.all("node-scanning-off")).isEmpty();
        assertThat(node.api.post("/api/v1/admin/scanning/pause", "").status()).isEqualTo(200);
        try {
            // the node's row says so at once, and who paused it; its last scan goes on moving, as its scan keeps
            // passing
            browser.open("/console/nodes");
            assertThat(browser.all("node-scanning-off")).hasSize(1);
            assertThat(browser.all("node-paused-by"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getText()).startsWith("paused by key:bootstrap-admin at "));
            browser.open("/console");
            assertThat(browser.all("node-scanning-off")).hasSize(1);
            JsonNode row =
                    node.api.get("/api/v1/stats/overview").body().path("nodes").get(0);
            assertThat(row.path("pausedBy").asText()).isEqualTo("key:bootstrap-admin");
            assertThat(row.path("pausedAt").isTextual()).isTrue();
        } finally {
            assertThat(node.api.post("/api/v1/admin/scanning/resume", "").status())
                    .isEqualTo(200);
        }
        browser.open("/console/nodes");
        assertThat(browser.all("node-scanning-off")).isEmpty();
        assertThat(browser.all("node-paused-by")).isEmpty();
    }

    @Test
    void the_workers_page_says_which_worker_is_live_and_which_went_silent() {
        String live = node.api
                .post(
                        "/api/v1/workers/register",
                        "{\"app\":\"state-live\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"s\"],\"capacity\":1}")
                .text("workerId");
        String silent = node.api
                .post(
                        "/api/v1/workers/register",
                        "{\"app\":\"state-silent\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"s\"],\"capacity\":1}")
                .text("workerId");
        try {
            // its last heartbeat 25 s ago by the database's clock: past two intervals (10 s), not yet removed (30 s)
            node.bean(org.springframework.jdbc.core.JdbcTemplate.class)
                    .update("UPDATE workers SET last_heartbeat = last_heartbeat - 25000 WHERE worker_id = ?", silent);
            browser.open("/console/workers");
            List<String> rows =
                    browser.all("worker-row").stream().map(WebElement::getText).toList();
            assertThat(rows)
                    .anySatisfy(r -> assertThat(r)
                            .contains(live)
                            .contains("default state-live")
                            .contains("live"));
            assertThat(rows).anySatisfy(r -> assertThat(r).contains(silent).contains("silent (missed heartbeats)"));
            assertThat(node.api.get("/api/v1/workers").body().path("items"))
                    .anySatisfy(w -> {
                        assertThat(w.path("workerId").asText()).isEqualTo(silent);
                        assertThat(w.path("state").asText()).isEqualTo("SILENT");
                    })
                    .anySatisfy(w -> {
                        assertThat(w.path("workerId").asText()).isEqualTo(live);
                        assertThat(w.path("state").asText()).isEqualTo("LIVE");
                    });
        } finally {
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + live);
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + silent);
        }
    }

    @Test
    void an_alert_whose_channel_cannot_be_reached_says_so_on_the_alerts_page() {
        String schedule = ScheduleHttp.create(node.api, """
                {"name":"hourly-for-an-alert","trigger":{"type":"cron","expression":"0 0 * * * ?"},
                 "job":{"jobType":"noop"}}""");
        Api.Response rule = node.api.post(
                "/api/v1/alerts/rules",
                "{\"name\":\"unreached\",\"type\":\"CRON_RUNAWAY\",\"filter\":{\"scheduleId\":\"" + schedule
                        + "\"},\"threshold\":10,\"forMs\":0,\"channels\":[\"down\"]}");
        assertThat(rule.status()).as(rule.body().toString()).isEqualTo(201);
        try {
            browser.open("/console/alerts");
            // shown from the first try on; its error once that try has failed
            browser.await(Duration.ofSeconds(20), d -> {
                d.navigate().refresh();
                return d.findElements(By.cssSelector("[data-testid='alert-undelivered']")).stream()
                        .anyMatch(e -> e.getText().contains("could not reach"));
            });
            // retried meanwhile: the status and attempt move on, the channel and the failed raise stay
            assertThat(browser.text("alert-undelivered"))
                    .containsPattern("down: FIRING not delivered \\([A-Z_]+, attempt \\d+\\)")
                    .contains("could not reach the alert channel at http://127.0.0.1:9: java.net.ConnectException")
                    .doesNotContain("/alerts");
            browser.screenshot(testName);
        } finally {
            ScheduleHttp.delete(node.api, "/api/v1/alerts/rules/unreached");
            ScheduleHttp.delete(node.api, "/api/v1/schedules/" + schedule);
        }
    }

    @Test
    void the_header_names_who_is_signed_in_and_signs_out() {
        browser.open("/console/jobs");
        assertThat(browser.text("signed-in")).isEqualTo("user:admin");
        browser.follow("sign-out");
        assertThat(browser.driver.getCurrentUrl()).contains("/login");
        browser.open("/console");
        assertThat(browser.driver.getCurrentUrl()).as("signed out").contains("/login");
    }

    @Test
    void the_pages_speak_chinese_and_go_dark_on_request() {
        // the audit filter below needs a succeeded job, whichever tests ran before
        node.api.awaitStatus(node.api.submit("{\"jobType\":\"noop\"}"), "SUCCEEDED");
        browser.open("/console?lang=zh-CN");
        assertThat(browser.driver.findElement(By.cssSelector("nav")).getText()).contains("任务", "调度", "审计");
        browser.find("theme-toggle").click();
        assertThat(browser.driver.executeScript("return document.documentElement.getAttribute('data-theme')"))
                .isEqualTo("dark");
        browser.screenshot(testName + "-overview");
        browser.open("/console/jobs");
        assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("任务");
        browser.find("nav-alerts").click();
        browser.await(Duration.ofSeconds(5), d -> d.getCurrentUrl().endsWith("/console/alerts"));
        assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("告警");
        assertThat(browser.find("alert-rules").isDisplayed()).isTrue();
        browser.open("/console/audit");
        assertThat(browser.all("audit-row")).isNotEmpty();
        browser.find("audit-type").sendKeys("JobSucceeded", Keys.ENTER);
        browser.await(Duration.ofSeconds(5), d -> d.getCurrentUrl().contains("type=JobSucceeded"));
        assertThat(browser.all("audit-row")).isNotEmpty();
        assertThat(browser.all("audit-row").stream().map(r -> r.getAttribute("data-type")))
                .containsOnly("JobSucceeded");
        browser.open("/console/audit?actor=nobody-at-all");
        assertThat(browser.all("audit-row")).isEmpty();
        // the bootstrap admin's creation is no job: its id is shown, not linked to a job page that is not there
        browser.open("/console/audit?type=ConsoleUserCreated");
        assertThat(browser.all("audit-row")).isNotEmpty();
        assertThat(browser.all("audit-aggregate-plain").stream().map(WebElement::getText))
                .contains("admin:user:admin");
        assertThat(browser.driver.findElements(By.cssSelector("[data-testid='audit-list'] a")))
                .isEmpty();
        browser.open("/console?lang=en");
        assertThat(browser.driver.findElement(By.cssSelector("nav")).getText()).contains("Jobs");
    }
}
