package io.tributary.sample;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tributary.test.Await;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Opens the sample's console in a real headless Chromium and watches a counter change without a
 * reload. Uses Debian's {@code chromium} and {@code chromium-driver}, which {@code .ci/run}
 * installs; skipped, saying so, where they are missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.orders=20000", "sample.workload.transactions-per-second=50" })
class ConsoleBrowserIT {

	private static final File BROWSER = new File("/usr/bin/chromium");

	private static final File DRIVER = new File("/usr/bin/chromedriver");

	@LocalServerPort
	private int port;

	@Test
	void theOverviewUpdatesItsCountersWithoutAReload() throws Exception {
		assumeTrue(BROWSER.canExecute() && DRIVER.canExecute(), "No headless browser: install Debian's chromium "
				+ "and chromium-driver (.ci/run does) to run the console's browser test");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(BROWSER);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER)
			.usingAnyFreePort()
			.build();
		WebDriver browser = new ChromeDriver(service, options);
		try {
			browser.get("http://localhost:" + this.port + "/tributary");
			// A full reload would drop this mark; the live update must keep it.
			((JavascriptExecutor) browser).executeScript("window.tributaryMark = 'still here';");
			String first = Await.value("the first table's changes applied on the page", Duration.ofMinutes(2),
					() -> applied(browser), (text) -> text != null && !text.isEmpty() && !text.equals("0"));
			Await.value("the first table's changes applied to change on the page", Duration.ofMinutes(1),
					() -> applied(browser), (text) -> text != null && !text.equals(first));
			assertThat(((JavascriptExecutor) browser).executeScript("return window.tributaryMark;"))
				.as("the page was updated in place, not reloaded").isEqualTo("still here");
			assertThat(browser.findElement(By.tagName("body")).getText()).contains("STREAMING");
			assertAccessible(browser, "overview");
			Path screenshots = Files.createDirectories(Path.of("target", "screenshots"));
			File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
			Files.copy(shot.toPath(), screenshots.resolve("overview.png"), StandardCopyOption.REPLACE_EXISTING);
		}
		finally {
			browser.quit();
		}
	}

	/**
	 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming
	 * the rule and the elements.
	 */
	private static void assertAccessible(WebDriver browser, String page) {
		Results results = new AxeBuilder().analyze(browser);
		List<String> severe = results.getViolations().stream()
			.filter((rule) -> "serious".equals(rule.getImpact()) || "critical".equals(rule.getImpact()))
			.map((rule) -> rule.getImpact() + " " + rule.getId() + ": " + rule.getHelp() + " at "
					+ rule.getNodes().stream().map((node) -> String.valueOf(node.getTarget())).toList())
			.toList();
		assertThat(severe).as("serious or critical accessibility violations on the " + page).isEmpty();
	}

	/** Returns the first table's changes applied as shown, or {@code null} while the live update swaps it. */
	private static String applied(WebDriver browser) {
		try {
			return browser.findElements(By.cssSelector(".applied")).stream().findFirst()
				.map((e) -> e.getText().trim()).orElse(null);
		}
		catch (StaleElementReferenceException ex) {
			return null;
		}
	}

}
