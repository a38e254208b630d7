package io.tributary.sample;

import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded source database before the application context is built, unless
 * {@code sample.embedded-database.enabled=false}, and points {@code cdc.source.*} and
 * {@code spring.datasource.*} at it. Properties set anywhere else win over these.
 */
public class EmbeddedSourceEnvironment implements EnvironmentPostProcessor, Ordered {

	private static EmbeddedSource started;

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty("sample.embedded-database.enabled", Boolean.class, true)) {
			return;
		}
		EmbeddedSource source = startOnce(environment.getProperty("sample.orders", Integer.class, 100_000));
		Map<String, Object> properties = new HashMap<>();
		properties.put("cdc.source.host", "127.0.0.1");
		properties.put("cdc.source.port", source.port());
		properties.put("cdc.source.username", EmbeddedSource.USER);
		properties.put("cdc.source.password", EmbeddedSource.PASSWORD);
		properties.put("spring.datasource.url", source.jdbcUrl("replica"));
		properties.put("spring.datasource.username", EmbeddedSource.USER);
		properties.put("spring.datasource.password", EmbeddedSource.PASSWORD);
		properties.put("sample.source-url", source.jdbcUrl("shop"));
		environment.getPropertySources().addLast(new MapPropertySource("embeddedSource", properties));
	}

	private static synchronized EmbeddedSource startOnce(int orders) {
		if (started == null) {
			EmbeddedSource source = EmbeddedSource.start();
			ShopData.create(source, orders);
			started = source;
		}
		return started;
	}

	/** Stops the embedded database, if this JVM started one. */
	static synchronized void stop() {
		if (started != null) {
			started.stop();
			started = null;
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
