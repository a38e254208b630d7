package io.tributary.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

/**
 * Replicates {@code shop.orders} and {@code shop.order_items} into schema {@code replica} while a
 * light workload writes to them. By default the source is an embedded MariaDB started with the
 * application; see the README to point it at a server of your own.
 */
@SpringBootApplication
public class SampleApplication {

	private static final Logger logger = LoggerFactory.getLogger(SampleApplication.class);

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

	/** Stops the embedded source after everything else, Tributary's final flush included. */
	@Bean
	DisposableBean embeddedSourceStopper() {
		return EmbeddedSourceEnvironment::stop;
	}

	@EventListener
	void ready(ApplicationReadyEvent event) {
		Environment environment = event.getApplicationContext().getEnvironment();
		String port = environment.getProperty("local.server.port", "8080");
		logger.info("Replication status: http://localhost:{}/actuator/cdc", port);
		logger.info("Admin UI: http://localhost:{}/tributary", port);
		String source = environment.getProperty("sample.source-url");
		if (source != null) {
			logger.info("Embedded source database: {} (user {}, password {}); write to shop.orders and watch replica.orders",
					source, EmbeddedSource.USER, EmbeddedSource.PASSWORD);
		}
	}

}
