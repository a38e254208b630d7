package io.tributary.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A configuration mistake ends an application's start with Spring Boot's failure report, its
 * Description naming the property and value and its Action the fix, and without a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTest {

	private static final String[] VALID = { "--cdc.source.port=1", "--cdc.source.username=repl",
			"--cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "--cdc.tables[0].source=shop.orders" };

	@Test
	void anEmptyTableListIsReportedWithItsFix(CapturedOutput output) {
		start(output, "--cdc.source.username=repl", "--cdc.target.url=jdbc:mysql://127.0.0.1:1/replica");
		assertThat(output).contains("Tributary cannot start: cdc.tables is empty.", "Property: cdc.tables",
				"Value: (not set)", "List the tables to replicate (cdc.tables[0].source=shop.orders), or set "
						+ "cdc.enabled=false.");
	}

	@Test
	void aTooSmallTargetPoolIsReportedWithItsFix(CapturedOutput output) {
		start(output, VALID, "--cdc.target.max-connections=3");
		assertThat(output).contains("Property: cdc.target.max-connections", "Value: \"3\"",
				"Raise cdc.target.max-connections to 10 or more");
	}

	@Test
	void anUnknownValueOfAnEnumerationIsReportedWithTheValidValues(CapturedOutput output) {
		start(output, VALID, "--cdc.tables[0].snapshot=sometimes");
		assertThat(output).contains("Property: cdc.tables[0].snapshot", "Value: \"sometimes\"", "ALWAYS");
	}

	@Test
	void anUnknownValueInOneOfSeveralSourcesIsReportedWithTheValidValues(CapturedOutput output) {
		start(output, "--cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "--cdc.sources.east.username=repl",
				"--cdc.sources.east.ssl-mode=sometimes", "--cdc.sources.east.tables[0].source=shop.orders");
		assertThat(output).contains("Property: cdc.sources.east.ssl-mode", "Value: \"sometimes\"",
				"VERIFY_IDENTITY");
	}

	private static void start(CapturedOutput output, String[] valid, String... more) {
		String[] args = new String[valid.length + more.length];
		System.arraycopy(valid, 0, args, 0, valid.length);
		System.arraycopy(more, 0, args, valid.length, more.length);
		start(output, args);
	}

	private static void start(CapturedOutput output, String... args) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run(args).close());
		assertThat(output).contains("APPLICATION FAILED TO START", "Description:", "Action:")
			.doesNotContain("\tat org.springframework");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(TributaryAutoConfiguration.class)
	static class Application {

	}

}
