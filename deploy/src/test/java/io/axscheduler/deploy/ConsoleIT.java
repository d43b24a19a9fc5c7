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
    Browser browser;
    String testName;

    @BeforeAll
    static void start() {
        node = Node.start(TestDatabase.freshDatabase("console"), "console-node");
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @BeforeEach
    void openBrowser(TestInfo test) {
        browser = new Browser(node.api.port);
        testName = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeBrowser() {
        browser.screenshot(testName);
        browser.close();
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
        for (int i = 0; i < 3; i++) ids.add(node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":1000}}"));
        browser.await(Duration.ofSeconds(10), d -> Long.parseLong(browser.text("count-RUNNING")) > 0);
        for (String id : ids) node.api.awaitStatus(id, "SUCCEEDED");
        long after = total("SUCCEEDED");

        // within 2 s of the API, without a reload
        browser.await(Duration.ofSeconds(2), d -> Long.parseLong(browser.text("count-SUCCEEDED")) >= after);
        assertThat(Long.parseLong(browser.text("count-SUCCEEDED"))).isGreaterThanOrEqualTo(before + 3);
        assertThat(browser.driver.executeScript("return window.axNotReloaded === true"))
                .isEqualTo(true);
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
        browser.find("job-retry").click();
        browser.await(Duration.ofSeconds(5), ExpectedConditions.alertIsPresent())
                .accept();
        browser.await(Duration.ofSeconds(10), d -> !browser.all("flash-done").isEmpty());
        node.api.awaitStatus(failing, "SUCCEEDED");
        browser.open("/console/jobs/" + failing);
        assertThat(browser.all("timeline-event").stream().map(e -> e.getAttribute("data-type")))
                .contains("JobRetryScheduled");
        JsonNode retried = node.api.get("/api/v1/jobs/" + failing + "/history").body();
        assertThat(retried.toString()).contains("\"actor\":\"user:admin\"");

        String waiting = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        browser.open("/console/jobs/" + waiting);
        browser.find("job-cancel-reason").sendKeys("not needed");
        browser.find("job-cancel").click();
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
            browser.find("next-page").click();
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
        browser.find("filter-apply").click();
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
        browser.open("/console/jobs");
        browser.find("filter-q").sendKeys("paged-4", Keys.ENTER);
        browser.await(Duration.ofSeconds(5), d -> browser.driver.getCurrentUrl().contains("q=paged-4"));
        assertThat(browser.all("job-row")).hasSize(1);
        assertThat(browser.all("job-row").get(0).getText()).contains("paged-4");
    }

    @Test
    void the_pages_speak_chinese_and_go_dark_on_request() {
        browser.open("/console?lang=zh-CN");
        assertThat(browser.driver.findElement(By.cssSelector("nav")).getText()).contains("任务", "调度", "审计");
        browser.find("theme-toggle").click();
        assertThat(browser.driver.executeScript("return document.documentElement.getAttribute('data-theme')"))
                .isEqualTo("dark");
        browser.screenshot(testName + "-overview");
        browser.open("/console/jobs");
        assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("任务");
        browser.open("/console/audit");
        assertThat(browser.all("audit-row")).isNotEmpty();
        browser.find("audit-type").sendKeys("JobSucceeded", Keys.ENTER);
        browser.await(Duration.ofSeconds(5), d -> d.getCurrentUrl().contains("type=JobSucceeded"));
        assertThat(browser.all("audit-row")).isNotEmpty();
        assertThat(browser.all("audit-row").stream().map(r -> r.getAttribute("data-type")))
                .containsOnly("JobSucceeded");
        browser.open("/console/audit?actor=nobody-at-all");
        assertThat(browser.all("audit-row")).isEmpty();
        browser.open("/console?lang=en");
        assertThat(browser.driver.findElement(By.cssSelector("nav")).getText()).contains("Jobs");
    }
}
