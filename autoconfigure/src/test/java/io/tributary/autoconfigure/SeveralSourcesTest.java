package io.tributary.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code cdc.sources.<name>} gives each source a pipeline of its own, with its own settings, tables,
 * pools and lifecycle.
 */
class SeveralSourcesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
		.withPropertyValues("cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.sources.orders.host=127.0.0.1",
				"cdc.sources.orders.port=1", "cdc.sources.orders.username=repl", "cdc.sources.orders.server-id=11",
				"cdc.sources.orders.tables[0].source=shop.orders", "cdc.sources.orders.tables[1].source=shop.items",
				"cdc.sources.billing.host=localhost", "cdc.sources.billing.port=2", "cdc.sources.billing.username=bill",
				"cdc.sources.billing.server-id=12", "cdc.sources.billing.pipeline=invoices",
				"cdc.sources.billing.tables[0].source=billing.invoices",
				"cdc.sources.billing.tables[0].target=archive.invoices");

	@Test
	void twoSourcesGiveTwoPipelinesWithTheirOwnSettings() {
		this.runner.run((context) -> {
			TributaryPipelines pipelines = context.getBean(TributaryPipelines.class);
			assertThat(pipelines.all()).extracting(Pipeline::name).containsExactly("orders", "invoices");
			PipelineStatus orders = pipelines.get("orders").status();
			assertThat(orders.source().host()).isEqualTo("127.0.0.1");
			assertThat(orders.source().port()).isEqualTo(1);
			assertThat(orders.source().serverId()).isEqualTo(11);
			assertThat(orders.tables()).extracting(TableStatus::name, TableStatus::target)
				.containsExactly(tuple("shop.orders", "replica.orders"), tuple("shop.items", "replica.items"));
			PipelineStatus invoices = pipelines.get("invoices").status();
			assertThat(invoices.source().host()).isEqualTo("localhost");
			assertThat(invoices.source().port()).isEqualTo(2);
			assertThat(invoices.source().serverId()).isEqualTo(12);
			assertThat(invoices.tables()).extracting(TableStatus::name, TableStatus::target)
				.containsExactly(tuple("billing.invoices", "archive.invoices"));
			assertThat(context).doesNotHaveBean("tributaryPipeline").hasBean("tributaryPipeline-orders")
				.hasBean("tributaryPipeline-billing");
			assertThat(context.getBeansOfType(TributaryLifecycle.class)).hasSize(2);
			HikariDataSource source = (HikariDataSource) context.getBean("tributaryConnections-billing",
					TributaryConnections.class).source();
			assertThat(source.getPoolName()).isEqualTo("tributary-source-billing");
			assertThat(source.getUsername()).isEqualTo("bill");
		});
	}

	@Test
	void eachPipelineStartsAndStopsWithTheContext() {
		List<Pipeline> started = new ArrayList<>();
		this.runner.run((context) -> {
			started.addAll(context.getBean(TributaryPipelines.class).all());
			assertThat(context.getBeansOfType(TributaryLifecycle.class).values())
				.allMatch(TributaryLifecycle::isRunning);
			assertThat(started).allMatch((p) -> p.status().state() != PipelineStatus.State.STOPPED);
		});
		assertThat(started).hasSize(2)
			.allMatch((p) -> p.status().state() == PipelineStatus.State.STOPPED);
	}

	@Test
	void oneSourceTableOfTwoSourcesMayGoToTwoTargets() {
		this.runner.withPropertyValues("cdc.sources.billing.tables[1].source=shop.orders",
				"cdc.sources.billing.tables[1].target=billing_orders")
			.run((context) -> assertThat(context.getBean(TributaryPipelines.class).get("invoices").status().tables())
				.extracting(TableStatus::target)
				.containsExactly("archive.invoices", "replica.billing_orders"));
	}

}
