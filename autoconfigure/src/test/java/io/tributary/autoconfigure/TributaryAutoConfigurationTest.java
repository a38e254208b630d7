package io.tributary.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.apply.ChangeListener;
import io.tributary.autoconfigure.endpoint.CdcEndpoint;
import io.tributary.autoconfigure.endpoint.CdcEndpointAutoConfiguration;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.test.TestCertificateAuthority;

import static org.assertj.core.api.Assertions.assertThat;

class TributaryAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class,
				CdcEndpointAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.source.server-id=4242", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
				"cdc.tables[0].source=shop.orders", "cdc.tables[1].source=shop.order_items",
				"cdc.tables[1].target=archive.items", "management.endpoints.web.exposure.include=cdc");

	@Test
	void buildsAPipelineWithItsEndpoint() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(Pipeline.class).hasSingleBean(CdcEndpoint.class);
			assertThat(context.getBean(Pipeline.class).status().source().serverId()).isEqualTo(4242);
		});
	}

	@Test
	void targetsDefaultToTheTargetSchema() {
		this.runner.run((context) -> {
			PipelineSettings settings = settings(context, "replica");
			assertThat(settings.tables()).containsExactly(
					new TableMapping(new TableId("shop", "orders"), new TableId("replica", "orders")),
					new TableMapping(new TableId("shop", "order_items"), new TableId("archive", "items")));
			assertThat(settings.checkpointTable()).isEqualTo(new TableId("replica", "tributary_checkpoint"));
		});
	}

	@Test
	void readsTableNamesQuotedAsMySqlQuotesThem() {
		// As application.yml gives them: source: "`odd.schema`.`special\"[``]$'`"
		this.runner.withPropertyValues("cdc.tables[2].source=`odd.schema`.`special\"[``]$'`",
				"cdc.tables[3].source=`odd.schema`.`a.b`", "cdc.tables[3].target=`copy.of`.`a.b`").run((context) -> {
					String special = "special\"[`]$'";
					assertThat(settings(context, "replica").tables()).containsExactly(
							new TableMapping(new TableId("shop", "orders"), new TableId("replica", "orders")),
							new TableMapping(new TableId("shop", "order_items"), new TableId("archive", "items")),
							new TableMapping(new TableId("odd.schema", special), new TableId("replica", special)),
							new TableMapping(new TableId("odd.schema", "a.b"), new TableId("copy.of", "a.b")));
					assertThat(context.getBean(Pipeline.class).status().tables())
						.extracting((table) -> table.name() + " -> " + table.target())
						.contains("`odd.schema`.`special\"[``]$'` -> replica.`special\"[``]$'`",
								"`odd.schema`.`a.b` -> `copy.of`.`a.b`");
				});
	}

	@Test
	void passesTlsSettingsToTheSource(@TempDir Path directory) {
		Path ca = TestCertificateAuthority.create("Source CA").writeCertificate(directory.resolve("source-ca.pem"));
		this.runner.withPropertyValues("cdc.source.ssl-mode=verify-ca", "cdc.source.ssl-ca=" + ca).run((context) -> {
			SourceSettings source = settings(context, "replica")
				.source();
			assertThat(source.sslMode()).isEqualTo(SslMode.VERIFY_CA);
			assertThat(source.sslCa()).isEqualTo(ca.toString());
			HikariDataSource pool = (HikariDataSource) context.getBean(TributaryConnections.class).source();
			assertThat(pool.getJdbcUrl()).startsWith("jdbc:mysql://127.0.0.1:1/?sslMode=VERIFY_CA&")
				.contains("&trustCertificateKeyStoreUrl=file", "&trustCertificateKeyStoreType=PKCS12")
				.doesNotContain("allowPublicKeyRetrieval");
		});
	}

	@Test
	void failsWithAClearMessageWhenTheCaFileIsMissing(@TempDir Path directory) {
		Path missing = directory.resolve("missing.pem");
		this.runner.withPropertyValues("cdc.source.ssl-mode=verify-identity", "cdc.source.ssl-ca=" + missing)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("The source's CA file " + missing + " (cdc.source.ssl-ca) does not exist"));
	}

	@Test
	void prefersTlsByDefault() {
		this.runner.run((context) -> {
			SourceSettings source = settings(context, "replica")
				.source();
			assertThat(source.sslMode()).isEqualTo(SslMode.PREFERRED);
			assertThat(source.sslCa()).isNull();
			HikariDataSource pool = (HikariDataSource) context.getBean(TributaryConnections.class).source();
			assertThat(pool.getJdbcUrl()).isEqualTo(
					"jdbc:mysql://127.0.0.1:1/?sslMode=PREFERRED&allowPublicKeyRetrieval=true&connectTimeout=10000");
		});
	}

	@Test
	void resumesByGtidUnlessTurnedOff() {
		this.runner.run((context) -> assertThat(settings(context, "replica").source().gtidPositioning()).isTrue());
		this.runner.withPropertyValues("cdc.source.gtid-positioning=false")
			.run((context) -> assertThat(settings(context, "replica").source().gtidPositioning()).isFalse());
	}

	@Test
	void bufferBudgetIsAQuarterOfTheHeapUnlessSet() {
		this.runner.run((context) -> assertThat(settings(context, "replica").bufferBudgetBytes())
			.isEqualTo(Runtime.getRuntime().maxMemory() / 4));
		this.runner.withPropertyValues("cdc.buffer.budget=64MB")
			.run((context) -> assertThat(settings(context, "replica").bufferBudgetBytes()).isEqualTo(64L * 1024 * 1024));
		this.runner.withPropertyValues("cdc.buffer.budget=-1")
			.run((context) -> assertThat(settings(context, "replica").bufferBudgetBytes()).isNegative());
	}

	@Test
	void checksumSettingsComeFromTheProperties() {
		this.runner.run((context) -> assertThat(settings(context, "replica").checksum())
			.isEqualTo(ChecksumSettings.DEFAULTS));
		this.runner
			.withPropertyValues("cdc.checksum.enabled=false", "cdc.checksum.fix-differences=false",
					"cdc.checksum.chunk-rows=500")
			.run((context) -> assertThat(settings(context, "replica")
				.checksum()).isEqualTo(new ChecksumSettings(false, false, 500)));
	}

	@Test
	void haIsOffUnlessEnabledAndTakesItsLeaseFromTheProperties() {
		this.runner.run((context) -> {
			assertThat(settings(context, "replica").ha()).isEqualTo(HaSettings.OFF);
			assertThat(context.getBean(Pipeline.class).status().leadership()).isNull();
		});
		this.runner.withPropertyValues("cdc.ha.enabled=true", "cdc.ha.lease=6s", "cdc.ha.poll-interval=500ms")
			.run((context) -> {
				assertThat(settings(context, "replica").ha())
					.isEqualTo(HaSettings.enabled(Duration.ofSeconds(6), Duration.ofMillis(500)));
				assertThat(context.getBean(Pipeline.class).status().leadership().leader()).isFalse();
			});
	}

	@Test
	void failsWithAClearMessageWithoutTables() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.username=repl", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.tables is empty"));
	}

	@Test
	void failsWithAClearMessageWithoutASourceUser() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.tables[0].source=shop.orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.source.username"));
	}

	@Test
	void canBeDisabled() {
		this.runner.withPropertyValues("cdc.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Pipeline.class).doesNotHaveBean(CdcEndpoint.class));
	}

	@Test
	void endpointNeedsTheActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasSingleBean(Pipeline.class).doesNotHaveBean(CdcEndpoint.class));
	}

	@Test
	void backsOffFromAUserPipeline() {
		this.runner.withUserConfiguration(UserPipeline.class)
			.run((context) -> assertThat(context).getBean(Pipeline.class).isSameAs(UserPipeline.PIPELINE));
	}

	@Test
	void readsTheDefaultSchemaFromTheUrl() {
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db:3306/replica?useSSL=false")).isEqualTo("replica");
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db:3306/")).isNull();
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db")).isNull();
	}

	@Test
	void deliversEveryTableToTheOnlyChangeListener() {
		ApplicationContextRunner listening = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class,
				CdcEndpointAutoConfiguration.class))
			.withPropertyValues("cdc.source.username=repl", "cdc.target.url=jdbc:mysql://127.0.0.1:1/app",
					"cdc.tables[0].source=shop.orders", "cdc.tables[1].source=shop.order_items",
					"management.endpoints.web.exposure.include=cdc")
			.withUserConfiguration(OneListener.class);
		listening.run((context) -> {
			assertThat(context).hasSingleBean(Pipeline.class);
			assertThat(context.getBean(Pipeline.class).status().tables())
				.extracting(io.tributary.status.TableStatus::target)
				.containsExactly("(listener).orders", "(listener).order_items");
			TributaryProperties properties = context.getBean(TributaryProperties.class);
			PipelineSettings settings = ConfiguredPipelines.settings(properties, ConfiguredSource.single(properties),
					context.getBean(SourceSettings.class), "app", context.getBean(ChangeListener.class));
			assertThat(settings.listener()).isSameAs(context.getBean(ChangeListener.class));
			assertThat(settings.checkpointTable()).isEqualTo(new TableId("app", "tributary_checkpoint"));
		});
	}

	@Test
	void refusesATargetTableBesideAChangeListener() {
		this.runner.withUserConfiguration(OneListener.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.tables[1].target is set, but the application has a ChangeListener bean"));
	}

	@Test
	void refusesMoreThanOneChangeListener() {
		this.runner.withUserConfiguration(OneListener.class, AnotherListener.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Found 2 ChangeListener beans")
				.hasMessageContaining("ordersListener")
				.hasMessageContaining("auditListener"));
	}

	@Test
	void aChangeListenerStillNeedsADatabaseForCheckpoints() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.username=repl", "cdc.tables[0].source=shop.orders")
			.withUserConfiguration(OneListener.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("No database for checkpoints")
				.hasMessageContaining("cdc.target.url"));
	}

	private static PipelineSettings settings(AssertableApplicationContext context, String targetSchema) {
		TributaryProperties properties = context.getBean(TributaryProperties.class);
		return ConfiguredPipelines.settings(properties, ConfiguredSource.single(properties),
				context.getBean(SourceSettings.class), targetSchema, null);
	}

	@Configuration(proxyBeanMethods = false)
	static class OneListener {

		@Bean
		ChangeListener ordersListener() {
			return (batch) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnotherListener {

		@Bean
		ChangeListener auditListener() {
			return (batch) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserPipeline {

		static final Pipeline PIPELINE = new Pipeline(PipelineSettings.of(
				new io.tributary.source.SourceSettings("127.0.0.1", 1, "u", "p", 7, null, null),
				java.util.List.of(new TableMapping(new TableId("a", "b"), new TableId("c", "b"))),
				new TableId("c", "cp")), new com.zaxxer.hikari.HikariDataSource(),
				new com.zaxxer.hikari.HikariDataSource());

		@Bean
		Pipeline pipeline() {
			return PIPELINE;
		}

	}

}
