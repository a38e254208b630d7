package io.tributary.sample;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tributary.test.Await;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Drives the sample's console in a real headless Chromium at 1280 px: the overview updates in
 * place, a table's page shows its charts and timeline, and pausing the table from the page stops
 * its changes while the other table's keep coming, until it is resumed from the keyboard. Both
 * pages must have no serious or critical accessibility violation. Uses Debian's {@code chromium}
 * and {@code chromium-driver}, which {@code .ci/run} installs; skipped, saying so, where they are
 * missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.orders=20000", "sample.workload.transactions-per-second=50" })
class ConsoleBrowserIT {

	private static final File BROWSER = new File("/usr/bin/chromium");

	private static final File DRIVER = new File("/usr/bin/chromedriver");

	private static final String PAUSED_TABLE = "shop.orders";

	private static final String OTHER_TABLE = "shop.order_items";

	@LocalServerPort
	private int port;

	private WebDriver browser;

	@BeforeEach
	void openBrowser() {
		assumeTrue(BROWSER.canExecute() && DRIVER.canExecute(), "No headless browser: install Debian's chromium "
				+ "and chromium-driver (.ci/run does) to run the console's browser test");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(BROWSER);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER)
			.usingAnyFreePort()
			.build();
		this.browser = new ChromeDriver(service, options);
	}

	@AfterEach
	void closeBrowser() {
		if (this.browser != null) {
			this.browser.quit();
		}
	}

	@Test
	void theConsoleUpdatesLiveAndPausesAndResumesATable() throws Exception {
		WebDriver browser = this.browser;
		browser.get("http://localhost:" + this.port + "/tributary");
		// A full reload would drop this mark; the live update must keep it.
		script("window.tributaryMark = 'still here';");
		String first = Await.value("the first table's changes applied on the overview", Duration.ofMinutes(2),
				() -> overviewApplied(PAUSED_TABLE), (n) -> n != null && n > 0).toString();
		awaitCharts(4);
		long nodes = pageNodes();
		for (int update = 0; update < 3; update++) {
			long before = overviewApplied(PAUSED_TABLE);
			Await.value("the overview's counter to change", Duration.ofMinutes(1), () -> overviewApplied(PAUSED_TABLE),
					(n) -> n != null && n != before);
		}
		assertThat(script("return window.tributaryMark;")).as("the page was updated in place, not reloaded")
			.isEqualTo("still here");
		assertThat(first).isNotEqualTo(String.valueOf(overviewApplied(PAUSED_TABLE)));
		// Polls swap the fragment and redraw the charts in place: the page must not grow with them.
		assertThat(pageNodes()).as("elements on the overview after three updates").isLessThanOrEqualTo(nodes + 20);
		assertThat(text("body")).contains("STREAMING");
		assertAccessible("overview");
		screenshot("overview.png", 1650);

		// A poll may swap the table list between finding the link and clicking it: find it again then.
		Await.until("the table's link clicked", Duration.ofSeconds(30), () -> {
			try {
				browser.findElement(By.linkText(PAUSED_TABLE)).click();
				return true;
			}
			catch (StaleElementReferenceException ex) {
				return false;
			}
		});
		Await.value("the table page", Duration.ofSeconds(30), () -> tableApplied(), (n) -> n != null && n > 0);
		assertThat(text(".table-title")).isEqualTo(PAUSED_TABLE);
		awaitCharts(4);
		assertAccessible("table page");

		press("action-pause", false);
		assertThat(text(".notice")).startsWith("Done.");
		Await.value("the table to show PAUSED", Duration.ofSeconds(30), () -> phase(), "PAUSED"::equals);
		long pausedAt = tableApplied();

		// While it is paused the overview shows its changes standing still and the other table's growing.
		browser.findElement(By.cssSelector("a.brand")).click();
		long otherBefore = Await.value("the other table on the overview", Duration.ofSeconds(30),
				() -> overviewApplied(OTHER_TABLE), (n) -> n != null);
		Await.value("the other table's changes to keep growing", Duration.ofMinutes(1),
				() -> overviewApplied(OTHER_TABLE), (n) -> n != null && n >= otherBefore + 50);
		assertThat(overviewApplied(PAUSED_TABLE)).as("changes applied of the paused table").isEqualTo(pausedAt);
		assertThat(overviewPhase(PAUSED_TABLE)).isEqualTo("PAUSED");

		browser.findElement(By.linkText(PAUSED_TABLE)).click();
		Await.value("the table page", Duration.ofSeconds(30), () -> tableApplied(), (n) -> n != null);
		assertThat(tableApplied()).isEqualTo(pausedAt);
		press("action-resume", true);
		assertThat(text(".notice")).startsWith("Done.");
		Await.value("the resumed table to catch up and stream", Duration.ofMinutes(2), () -> phase() + " " + tableApplied(),
				(shown) -> shown.startsWith("STREAMING") && tableApplied() > pausedAt);

		List<String> actions = Await.value("both actions in the timeline", Duration.ofSeconds(30),
				() -> timelineActions(), (list) -> list.size() >= 2);
		assertThat(actions.get(0)).as("newest first").startsWith("resume:");
		assertThat(actions.get(1)).startsWith("pause:");
		assertThat(timelineKinds()).contains("PHASE", "ACTION");
		assertAccessible("table page after the actions");
		screenshot("table.png", 2600);
	}

	/** Presses an action's button with the mouse, or from the keyboard, and waits for the page it leads to. */
	private void press(String buttonId, boolean keyboard) throws Exception {
		WebElement button = this.browser.findElement(By.id(buttonId));
		assertThat(button.getTagName()).isEqualTo("button");
		if (keyboard) {
			button.sendKeys(Keys.ENTER);
		}
		else {
			button.click();
		}
		Await.value("the notice of " + buttonId, Duration.ofSeconds(30),
				() -> this.browser.findElements(By.cssSelector(".notice")).size(), (n) -> n > 0);
	}

	/** Waits until at least {@code count} charts have drawn their canvas. */
	private void awaitCharts(int count) throws Exception {
		Await.value(count + " charts drawn", Duration.ofMinutes(1),
				() -> this.browser.findElements(By.cssSelector(".chart canvas")).size(), (n) -> n >= count);
	}

	/**
	 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming
	 * the rule and the elements.
	 */
	private void assertAccessible(String page) {
		Results results = new AxeBuilder().analyze(this.browser);
		List<String> severe = results.getViolations().stream()
			.filter((rule) -> "serious".equals(rule.getImpact()) || "critical".equals(rule.getImpact()))
			.map((rule) -> rule.getImpact() + " " + rule.getId() + ": " + rule.getHelp() + " at "
					+ rule.getNodes().stream().map((node) -> String.valueOf(node.getTarget())).toList())
			.toList();
		assertThat(severe).as("serious or critical accessibility violations on the " + page).isEmpty();
	}

	/** Saves the whole page, {@code height} pixels tall, under {@code target/screenshots}. */
	private void screenshot(String name, int height) throws Exception {
		Dimension size = this.browser.manage().window().getSize();
		this.browser.manage().window().setSize(new Dimension(1280, height));
		try {
			Path screenshots = Files.createDirectories(Path.of("target", "screenshots"));
			File shot = ((TakesScreenshot) this.browser).getScreenshotAs(OutputType.FILE);
			Files.copy(shot.toPath(), screenshots.resolve(name), StandardCopyOption.REPLACE_EXISTING);
		}
		finally {
			this.browser.manage().window().setSize(size);
		}
	}

	private Object script(String script) {
		return ((JavascriptExecutor) this.browser).executeScript(script);
	}

	private long pageNodes() {
		return ((Number) script("return document.getElementsByTagName('*').length;")).longValue();
	}

	/** Returns a table's changes applied as the overview shows them, or {@code null} mid-swap. */
	private Long overviewApplied(String table) {
		return number(() -> rowOf(table).findElement(By.cssSelector(".applied")).getText());
	}

	private String overviewPhase(String table) {
		return rowOf(table).findElement(By.cssSelector(".badge")).getText().trim();
	}

	private WebElement rowOf(String table) {
		return this.browser.findElement(By.cssSelector("tr[data-table='" + table + "']"));
	}

	/** Returns the table page's changes applied, or {@code null} mid-swap. */
	private Long tableApplied() {
		return number(() -> this.browser.findElement(By.cssSelector("#table-live .applied")).getText());
	}

	private String phase() {
		try {
			return this.browser.findElement(By.cssSelector("#table-live .badge.phase")).getText().trim();
		}
		catch (StaleElementReferenceException | NoSuchElementException ex) {
			return "";
		}
	}

	/** Returns the messages of the timeline's actions, newest first. */
	private List<String> timelineActions() {
		try {
			return this.browser.findElements(By.cssSelector("tr[data-kind='ACTION'] .event-message")).stream()
				.map((cell) -> cell.getText().trim())
				.toList();
		}
		catch (StaleElementReferenceException ex) {
			return List.of();
		}
	}

	private List<String> timelineKinds() {
		return this.browser.findElements(By.cssSelector(".timeline .badge")).stream()
			.map((badge) -> badge.getText().trim())
			.toList();
	}

	private String text(String css) {
		return this.browser.findElement(By.cssSelector(css)).getText().trim();
	}

	private static Long number(Supplier<String> shown) {
		try {
			String text = shown.get().trim().replace(",", "");
			return text.matches("\\d+") ? Long.parseLong(text) : null;
		}
		catch (StaleElementReferenceException | NoSuchElementException ex) {
			return null;
		}
	}

}
