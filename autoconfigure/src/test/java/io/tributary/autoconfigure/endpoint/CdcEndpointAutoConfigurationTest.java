package io.tributary.autoconfigure.endpoint;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.CdcActionsAutoConfiguration;
import io.tributary.autoconfigure.actions.RequestRefused;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.autoconfigure.security.CdcAccess.Operation;
import io.tributary.autoconfigure.security.CdcAccess.Verdict;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;
import io.tributary.autoconfigure.security.OpenCdcAccess;
import io.tributary.autoconfigure.security.SpringSecurityCdcAccess;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the {@code cdc} endpoint and its access decision exist, how they back off, and how the
 * endpoint answers without a running pipeline: addressing tables of several pipelines, refusals and
 * the access checks.
 */
class CdcEndpointAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class,
				CdcEndpointAutoConfiguration.class))
		.withPropertyValues("cdc.source.username=repl", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
				"cdc.tables[0].source=shop.orders", "management.endpoints.web.exposure.include=cdc");

	@AfterEach
	void signOut() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theEndpointExistsOnceExposed() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(CdcEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(CdcEndpoint.class));
		this.runner.withPropertyValues("management.endpoint.cdc.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(CdcEndpoint.class));
	}

	@Test
	void neitherExistsWithoutPipelines() {
		this.runner.withPropertyValues("cdc.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CdcEndpoint.class).doesNotHaveBean(CdcAccess.class));
	}

	@Test
	void backsOffFromTheApplicationsEndpointAndAccess() {
		this.runner.withUserConfiguration(OwnEndpointAndAccess.class).run((context) -> {
			assertThat(context).getBean(CdcEndpoint.class).isSameAs(context.getBean("ownEndpoint"));
			assertThat(context).getBean(CdcAccess.class).isSameAs(context.getBean("ownAccess"));
		});
	}

	@Test
	void theEndpointActsThroughTheApplicationsActionService() {
		this.runner.withConfiguration(AutoConfigurations.of(CdcActionsAutoConfiguration.class))
			.withPropertyValues("cdc.admin.actions-enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(CdcActions.class));
		this.runner.withConfiguration(AutoConfigurations.of(CdcActionsAutoConfiguration.class))
			.withUserConfiguration(OwnActions.class)
			.run((context) -> {
				assertThat(context).getBean(CdcActions.class).isSameAs(context.getBean("ownActions"));
				assertRefused(context.getBean(CdcEndpoint.class).tableAction("pause", "shop.orders"), 409,
						"asked through the application's own service");
				assertRefused(context.getBean(CdcEndpoint.class).allTablesAction("pause"), 409,
						"asked through the application's own service");
			});
	}

	@Test
	void oneTableComesWithItsLayoutCheckpointAndTimeline() {
		CdcEndpoint endpoint = endpoint(pipeline("a", "shop.orders"));
		CdcEndpoint.TableDetail detail = (CdcEndpoint.TableDetail) endpoint.table("shop.orders").getBody();
		assertThat(detail.table().name()).isEqualTo("shop.orders");
		assertThat(detail.columns()).as("no layout before the pipeline reads it").isEmpty();
		assertThat(detail.keyColumns()).isEmpty();
		assertThat(detail.partitionIndexes()).isEmpty();
		assertThat(detail.checkpoint()).isNull();
		assertThat(detail.timeline()).isNotNull();
	}

	@Test
	void springSecurityDecidesWhenPresentAndEveryoneMayOtherwise() {
		this.runner.run((context) -> assertThat(context).getBean(CdcAccess.class)
			.isInstanceOf(SpringSecurityCdcAccess.class));
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context).getBean(CdcAccess.class).isInstanceOf(OpenCdcAccess.class));
	}

	@Test
	void withoutSpringSecurityActionsNeedOnlyTheSwitch() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security")).run((context) -> {
			CdcEndpoint endpoint = context.getBean(CdcEndpoint.class);
			assertThat(endpoint.overview().getStatus()).isEqualTo(200);
			assertRefused(endpoint.tableAction("pause", "shop.orders"), 403,
					"cdc.admin.actions-enabled=true");
		});
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.withPropertyValues("cdc.admin.actions-enabled=true")
			.run((context) -> assertRefused(context.getBean(CdcEndpoint.class)
				.tableAction("pause", "shop.orders"), 409, "Cannot pause shop.orders: the pipeline is"));
	}

	@Test
	void springSecurityWantsASignedInUserWithTheRoleForActions() {
		TributaryProperties.Admin admin = new TributaryProperties.Admin();
		SpringSecurityCdcAccess access = new SpringSecurityCdcAccess(admin);
		assertThat(access.decide(Operation.READ)).isEqualTo(Decision.allowed(null));
		assertThat(access.decide(Operation.WRITE).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		signIn("viewer", "ROLE_VIEWER");
		assertThat(access.decide(Operation.READ)).isEqualTo(Decision.allowed("viewer"));
		assertThat(access.decide(Operation.WRITE).verdict()).isEqualTo(Verdict.FORBIDDEN);
		assertThat(access.decide(Operation.WRITE).reason()).contains("role CDC_ADMIN (cdc.admin.role)", "'viewer'");
		signIn("operator", "ROLE_CDC_ADMIN");
		assertThat(access.decide(Operation.WRITE)).isEqualTo(Decision.allowed("operator"));
		admin.setReadRole("CDC_READ");
		assertThat(access.decide(Operation.READ)).as("the action role reads too")
			.isEqualTo(Decision.allowed("operator"));
		signIn("reader", "CDC_READ");
		assertThat(access.decide(Operation.READ)).isEqualTo(Decision.allowed("reader"));
		signIn("viewer", "ROLE_VIEWER");
		assertThat(access.decide(Operation.READ).reason()).contains("role CDC_READ (cdc.admin.read-role)");
		SecurityContextHolder.clearContext();
		assertThat(access.decide(Operation.READ).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
	}

	@Test
	void theEndpointAnswersWhatSpringSecurityDecides() {
		this.runner.withPropertyValues("cdc.admin.actions-enabled=true", "cdc.admin.read-role=CDC_READ")
			.run((context) -> {
				CdcEndpoint endpoint = context.getBean(CdcEndpoint.class);
				assertRefused(endpoint.overview(), 401, "needs a signed-in user with role CDC_READ");
				assertRefused(endpoint.tableAction("pause", "shop.orders"), 401, "signed-in");
				signIn("reader", "ROLE_CDC_READ");
				assertThat(endpoint.table("shop.orders").getStatus()).isEqualTo(200);
				assertRefused(endpoint.allTablesAction("pause"), 403, "role CDC_ADMIN");
			});
	}

	@Test
	void aTableOfSeveralPipelinesIsNamedWithItsPipeline() {
		CdcEndpoint endpoint = endpoint(pipeline("a", "shop.orders"), pipeline("b", "shop.orders", "shop.items"));
		assertThat(((CdcEndpoint.Overview) endpoint.overview().getBody()).pipelines())
			.extracting((status) -> status.name())
			.containsExactly("a", "b");
		assertRefused(endpoint.table("shop.orders"), 400,
				"replicated by pipelines [a, b]; name one, as in a:shop.orders");
		CdcEndpoint.TableDetail detail = (CdcEndpoint.TableDetail) endpoint.table("b:SHOP.orders").getBody();
		assertThat(detail.pipeline()).isEqualTo("b");
		assertThat(detail.table().name()).isEqualTo("shop.orders");
		assertThat(((CdcEndpoint.TableDetail) endpoint.table("shop.items").getBody()).pipeline()).isEqualTo("b");
		assertRefused(endpoint.table("c:shop.orders"), 404, "No pipeline is named 'c'; the pipelines are [a, b]");
		assertRefused(endpoint.table("a:shop.items"), 404, "shop.items is not replicated by pipeline a");
		assertRefused(endpoint.table("shop.customers"), 404, "[a:shop.orders, b:shop.orders, b:shop.items]");
		assertRefused(endpoint.table("orders"), 400, "must be qualified with its schema");
	}

	@Test
	void aTableIsNamedAsItsStatusQuotesIt() {
		String special = "`odd.schema`.`special\"[``]$'`";
		CdcEndpoint endpoint = endpoint(pipeline("a", special, "shop.`a/b%20 c.d`", "dbz5743\u4e2d\u6587.t:1"),
				pipeline("b", "shop.orders"));
		CdcEndpoint.TableDetail detail = (CdcEndpoint.TableDetail) endpoint.table(special).getBody();
		assertThat(detail.table().name()).isEqualTo(special);
		assertThat(detail.table().target()).isEqualTo("replica.`special\"[``]$'`");
		assertThat(((CdcEndpoint.TableDetail) endpoint.table("a:`ODD.schema`.`special\"[``]$'`").getBody()).pipeline())
			.isEqualTo("a");
		assertThat(((CdcEndpoint.TableDetail) endpoint.table("shop.`a/b%20 c.d`").getBody()).table().name())
			.isEqualTo("shop.`a/b%20 c.d`");
		assertThat(((CdcEndpoint.TableDetail) endpoint.table("dbz5743\u4e2d\u6587.t:1").getBody()).pipeline())
			.as("a plain name holding a colon").isEqualTo("a");
		assertThat(((CdcEndpoint.TableDetail) endpoint.table("a:dbz5743\u4e2d\u6587.t:1").getBody()).pipeline())
			.isEqualTo("a");
		assertRefused(endpoint.table("`odd.schema`.`special"), 400, "a quote that is never closed at position 14");
		assertRefused(endpoint.table("c:shop.orders"), 404, "No pipeline is named 'c'");
		assertRefused(endpoint.tableAction("resume", special), 409, "Cannot resume " + special);
	}

	@Test
	void actionsAreRefusedWithThePipelinesReason() {
		CdcEndpoint endpoint = endpoint(pipeline("a", "shop.orders"), pipeline("b", "shop.items"));
		assertRefused(endpoint.tableAction("explode", "shop.items"), 400,
				"Unknown action 'explode'; the actions are [pause, resume, flush, resnapshot, restart, checksum]");
		assertRefused(endpoint.tableAction("pause", "shop.customers"), 404, "not replicated");
		assertRefused(endpoint.tableAction("resume", "shop.items"), 409,
				"Cannot resume shop.items: the pipeline is STOPPED");
		assertRefused(endpoint.tableAction("flush", "a:shop.orders"), 409,
				"Cannot flush: the pipeline is STOPPED");
		WebEndpointResponse<OperationResponseBody> all = endpoint.allTablesAction("checksum");
		assertThat(all.getStatus()).isEqualTo(409);
		CdcEndpoint.AllTablesOutcome outcome = (CdcEndpoint.AllTablesOutcome) all.getBody();
		assertThat(outcome.results()).extracting(CdcEndpoint.ActionOutcome::pipeline).containsExactly("a", "b");
		assertThat(outcome.results()).allSatisfy((result) -> {
			assertThat(result.done()).isFalse();
			assertThat(result.message()).contains("cannot be compared now");
		});
	}

	private static void assertRefused(WebEndpointResponse<OperationResponseBody> response, int status, String message) {
		assertThat(response.getStatus()).isEqualTo(status);
		CdcEndpoint.Refusal refusal = (CdcEndpoint.Refusal) response.getBody();
		assertThat(refusal.status()).isEqualTo(status);
		assertThat(refusal.message()).contains(message);
	}

	private static void signIn(String user, String... authorities) {
		SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken(user, "", authorities));
	}

	private static CdcEndpoint endpoint(Pipeline... pipelines) {
		TributaryProperties.Admin admin = new TributaryProperties.Admin();
		admin.setActionsEnabled(true);
		return new CdcEndpoint(new TributaryPipelines(List.of(pipelines)), new OpenCdcAccess(), admin);
	}

	/** A pipeline that is never started: its status and its refusals need no server. */
	private static Pipeline pipeline(String name, String... tables) {
		PipelineSettings named = PipelineSettings
			.builder(new SourceSettings("127.0.0.1", 1, "u", "p", 7, null, null),
					List.of(tables).stream()
						.map((table) -> TableId.parse(table, null))
						.map((table) -> new TableMapping(table, new TableId("replica", table.table())))
						.toList(),
					new TableId("replica", "cp"))
			.name(name)
			.build();
		return new Pipeline(named, new HikariDataSource(), new HikariDataSource());
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnActions {

		@Bean
		CdcActions ownActions(TributaryPipelines pipelines, CdcAccess access) {
			return new CdcActions(pipelines, access, new TributaryProperties.Admin()) {

				@Override
				public Outcome run(String action, String table) {
					throw new RequestRefused(RequestRefused.CONFLICT, action + " asked through the application's own service");
				}

				@Override
				public List<Outcome> runOnAllTables(String action) {
					throw new RequestRefused(RequestRefused.CONFLICT, action + " asked through the application's own service");
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnEndpointAndAccess {

		@Bean
		CdcAccess ownAccess() {
			return (operation) -> Decision.forbidden(null, "nobody");
		}

		@Bean
		CdcEndpoint ownEndpoint(TributaryPipelines pipelines, CdcAccess access) {
			return new CdcEndpoint(pipelines, access, new TributaryProperties.Admin());
		}

	}

}
