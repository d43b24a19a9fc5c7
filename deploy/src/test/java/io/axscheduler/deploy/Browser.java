package io.axscheduler.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by its chromedriver, on a fresh profile, with nothing fetched from the internet
 * (Selenium Manager is not asked: the driver and browser are named). Screenshots go to target/console-screenshots.
 */
final class Browser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    final ChromeDriver driver;
    private final Path profile;
    private final String base;

    /** Started, signed in as no one: {@link #startOver} signs in. */
    Browser(int port) {
        try {
            profile = Files.createTempDirectory("ax-console-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM)
                .addArguments(
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--disable-dev-shm-usage",
                        "--lang=en-US",
                        "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(CHROMEDRIVER).toFile())
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        base = "http://127.0.0.1:" + port;
    }

    /**
     * Forgets the last test's session, cookies (the language, say) and stored state, and signs in again as
     * {@code user}: a fresh start for the next test without the seconds a new Chromium takes to start.
     */
    void startOver(String user, String password) {
        driver.get(base + "/login");
        driver.manage().deleteAllCookies();
        driver.executeScript("window.localStorage.clear(); window.sessionStorage.clear();");
        driver.manage().window().setSize(new Dimension(1440, 1000));
        // the form again: the one loaded above carries the CSRF token of the session just forgotten
        driver.get(base + "/login");
        signIn(user, password);
    }

    /** Signs in through the login form; the next page read comes after the session cookie. */
    private void signIn(String user, String password) {
        driver.findElement(By.name("username")).sendKeys(user);
        driver.findElement(By.name("password")).sendKeys(password);
        clickToNextPage(driver.findElement(By.cssSelector("button[type='submit']")));
    }

    void open(String path) {
        driver.get(base + path);
    }

    /**
     * Clicks a link or a form's button that loads another page, and returns once that page has replaced this one:
     * reading right after a bare click may find the old page's elements.
     */
    void follow(String testId) {
        clickToNextPage(find(testId));
    }

    private void clickToNextPage(WebElement target) {
        WebElement old = driver.findElement(By.tagName("html"));
        target.click();
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(10), Duration.ofMillis(50));
        wait.until(d -> replaced(old));
        wait.until(d -> "complete".equals(driver.executeScript("return document.readyState")));
    }

    /**
     * {@link ExpectedConditions#stalenessOf}, asked again when chromedriver answers mid-navigation that the element's
     * node "does not belong to the document" (an inspector error, not a stale element: seen once in CI on Chromium
     * 156, failing the wait at once).
     */
    private static boolean replaced(WebElement old) {
        try {
            old.isEnabled();
            return false;
        } catch (StaleElementReferenceException e) {
            return true;
        } catch (WebDriverException e) {
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) return false;
            throw e;
        }
    }

    WebElement find(String testId) {
        return driver.findElement(By.cssSelector("[data-testid='" + testId + "']"));
    }

    List<WebElement> all(String testId) {
        return driver.findElements(By.cssSelector("[data-testid='" + testId + "']"));
    }

    /** The element's text; a live page may swap the element between finding and reading it, so that is retried. */
    String text(String testId) {
        for (int i = 0; ; i++) {
            try {
                return find(testId).getText().trim();
            } catch (StaleElementReferenceException e) {
                if (i == 5) throw e;
            }
        }
    }

    /**
     * Clicks the element; a live page may swap it (its refresh after a change the page was rendered with) between
     * finding and clicking, so that is retried on the new one.
     */
    void click(String testId) {
        for (int i = 0; ; i++) {
            try {
                find(testId).click();
                return;
            } catch (StaleElementReferenceException e) {
                if (i == 5) throw e;
            }
        }
    }

    <T> T await(Duration timeout, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, timeout, Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path shot =
                    ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary profile left behind is harmless
            }
        }
    }
}
