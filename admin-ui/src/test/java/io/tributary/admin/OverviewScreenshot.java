package io.tributary.admin;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tributary.test.Await;

import static io.tributary.admin.FakeConsoleApplication.CLOCK;
import static io.tributary.admin.FakeConsoleApplication.STATUSES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Takes the screenshot of the overview of a pipeline of 1,000 tables that docs/admin-ui.md shows,
 * in a real headless Chromium at 1280 px, into {@code docs/images/console-overview-1000.png}. Kept
 * out of the build's test runs by its name; run it with {@code -Dtest=OverviewScreenshot}. Uses
 * Debian's {@code chromium} and {@code chromium-driver}; skipped, saying so, where they are missing.
 */
@SpringBootTest(classes = FakeConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "cdc.admin.path=/ops", "server.address=127.0.0.1",
				"spring.application.name=overview-screenshot" })
class OverviewScreenshot {

	private static final File BROWSER = new File("/usr/bin/chromium");

	private static final File DRIVER = new File("/usr/bin/chromedriver");

	private static final Path IMAGE = Path.of("..", "docs", "images", "console-overview-1000.png");

	@LocalServerPort
	private int port;

	@Autowired
	private StatusHistory history;

	private WebDriver browser;

	@BeforeEach
	void openBrowser() {
		assumeTrue(BROWSER.canExecute() && DRIVER.canExecute(), "No headless browser: install Debian's chromium "
				+ "and chromium-driver to take the overview's screenshot");
		FakeConsoleApplication.reset();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(BROWSER);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
				"--hide-scrollbars");
		this.browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER)
			.usingAnyFreePort()
			.build(), options);
	}

	@AfterEach
	void closeBrowser() {
		STATUSES.set(List.of());
		if (this.browser != null) {
			this.browser.quit();
		}
	}

	@Test
	void theOverviewOfAThousandTables() throws Exception {
		// Samples with growing counters, so that the charts and the rates have something to draw.
		for (int sample = 0; sample < 10; sample++) {
			STATUSES.set(List.of(Statuses.many("main", 1_000, sample)));
			this.history.sample();
			CLOCK.step();
		}
		this.browser.get("http://127.0.0.1:" + this.port + "/ops");
		Await.value("the charts drawn", Duration.ofSeconds(30),
				() -> this.browser.findElements(By.cssSelector(".chart canvas")).size(), (n) -> n >= 4);
		assertThat(this.browser.findElements(By.cssSelector("tr[data-table]"))).hasSize(PipelineOverview.PAGE_SIZE);
		long height = ((Number) ((JavascriptExecutor) this.browser)
			.executeScript("return document.documentElement.scrollHeight;")).longValue();
		this.browser.manage().window().setSize(new Dimension(1280, (int) Math.min(height, 2_400)));
		File shot = ((TakesScreenshot) this.browser).getScreenshotAs(OutputType.FILE);
		Files.copy(shot.toPath(), IMAGE, StandardCopyOption.REPLACE_EXISTING);
	}

}
