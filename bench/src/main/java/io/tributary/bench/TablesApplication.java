package io.tributary.bench;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The tables scenario's application: the starter, the console, the actuator and a Prometheus
 * registry, as a user would assemble them, configured entirely from its command line by
 * {@link TablesScenario}, plus {@link JvmFiguresEndpoint} so the scenario can read this JVM's heap
 * and threads. It scans no package: nothing of the benchmark becomes a bean by accident.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class TablesApplication {

	@Bean
	JvmFiguresEndpoint jvmFiguresEndpoint() {
		return new JvmFiguresEndpoint();
	}

	public static void main(String[] args) {
		SpringApplication.run(TablesApplication.class, args);
	}

}
