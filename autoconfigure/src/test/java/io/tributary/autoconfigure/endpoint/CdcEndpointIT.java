package io.tributary.autoconfigure.endpoint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.tributary.autoconfigure.endpoint.EndpointClient.Response;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/cdc} over HTTP in a running application, with Spring Security and actions
 * enabled: the overview and one table, each action on one table and on all of them and what it does
 * to the tables, the user checks, and no password in any response or log line.
 *
 * <p>The tests share one running pipeline and run in order; each waits for the state it starts
 * from, so the order only saves waiting.
 */
@ExtendWith({ DatabaseExtension.class, OutputCaptureExtension.class })
@SpringBootTest(classes = SecuredApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "cdc.admin.actions-enabled=true", "management.endpoints.web.exposure.include=cdc",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"cdc.flush.interval=100ms", "logging.level.io.tributary=DEBUG",
				"logging.level.com.zaxxer.hikari=DEBUG" })
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CdcEndpointIT {

	private static final String SOURCE_USER = "cdc_endpoint_source";

	private static final String SOURCE_PASSWORD = "Src-Quokka-5531";

	private static final String TARGET_USER = "cdc_endpoint_target";

	private static final String TARGET_PASSWORD = "Tgt-Narwhal-8642";

	private static final String OPERATOR = "operator";

	private static final Duration WAIT = Duration.ofMinutes(1);

	private static final EndpointClient client = new EndpointClient();

	private static final StringBuilder logs = new StringBuilder();

	private static TestDatabase db;

	private static String src;

	private static String dst;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void tablesAndAccounts(TestDatabase database) {
		db = database;
		src = db.schema("src");
		dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE orders (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO orders VALUES (1, 'a'), (2, 'b'), (3, 'c')",
				"CREATE TABLE items (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')",
				"CREATE TABLE broken (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO broken VALUES (1, 'a')");
		// A target that does not fit its source: the table fails at start until it is dropped.
		db.server().execute(dst, "CREATE TABLE broken (id INT PRIMARY KEY, w DATE)");
		account(SOURCE_USER, SOURCE_PASSWORD);
		account(TARGET_USER, TARGET_PASSWORD);
	}

	private static void account(String user, String password) {
		for (String host : new String[] { "%", "localhost" }) {
			String account = "'" + user + "'@'" + host + "'";
			db.server().execute(null, "DROP USER IF EXISTS " + account,
					"CREATE USER " + account + " IDENTIFIED BY '" + password + "'",
					"GRANT ALL PRIVILEGES ON *.* TO " + account);
		}
	}

	@AfterAll
	static void dropAccounts() {
		for (String host : new String[] { "%", "localhost" }) {
			db.server().execute(null, "DROP USER IF EXISTS '" + SOURCE_USER + "'@'" + host + "'",
					"DROP USER IF EXISTS '" + TARGET_USER + "'@'" + host + "'");
		}
	}

	@DynamicPropertySource
	static void connections(DynamicPropertyRegistry registry) {
		registry.add("cdc.source.host", () -> db.server().host());
		registry.add("cdc.source.port", () -> db.server().port());
		registry.add("cdc.source.username", () -> SOURCE_USER);
		registry.add("cdc.source.password", () -> SOURCE_PASSWORD);
		registry.add("cdc.target.url", () -> db.jdbcUrl(dst));
		registry.add("cdc.target.username", () -> TARGET_USER);
		registry.add("cdc.target.password", () -> TARGET_PASSWORD);
		registry.add("cdc.tables[0].source", () -> src + ".orders");
		registry.add("cdc.tables[1].source", () -> src + ".items");
		registry.add("cdc.tables[2].source", () -> src + ".broken");
	}

	@BeforeEach
	void client() {
		client.port(this.port);
	}

	@AfterEach
	void keepLog(CapturedOutput output) {
		logs.append(output.getAll());
	}

	@Test
	@Order(1)
	void theOverviewListsEachPipelineAndOneTableHasItsOwnPath() throws Exception {
		JsonNode pipeline = client.await(null, "orders and items streaming, broken failed",
				(p) -> phase(p, "orders").equals("STREAMING") && phase(p, "items").equals("STREAMING")
						&& phase(p, "broken").equals("FAILED"));
		assertThat(pipeline.get("name").asString()).isEqualTo("default");
		assertThat(pipeline.get("state").asString()).isEqualTo("RUNNING");
		assertThat(pipeline.get("tables").size()).isEqualTo(3);
		assertThat(table(pipeline, "broken").get("lastError").asString()).contains("does not match source");

		Response orders = client.get(null, "/actuator/cdc/" + src + ".orders");
		assertThat(orders.status()).as(orders.body()).isEqualTo(200);
		assertThat(orders.json().get("pipeline").asString()).isEqualTo("default");
		assertThat(orders.json().get("table").get("name").asString()).isEqualTo(src + ".orders");
		assertThat(orders.json().get("table").get("target").asString()).isEqualTo(dst + ".orders");
		assertThat(orders.json().get("table").get("phase").asString()).isEqualTo("STREAMING");
		// MySQL 8 writes int without its display width, MariaDB as int(11).
		assertThat(orders.json().get("columns").valueStream().map((c) -> c.get("name").asString() + " "
				+ c.get("type").asString().replace("int(11)", "int") + " key=" + c.get("key").asBoolean()
				+ " nullable=" + c.get("nullable").asBoolean()))
			.containsExactly("id int key=true nullable=false", "v varchar(20) key=false nullable=true");
		assertThat(orders.json().get("keyColumns").valueStream().map(JsonNode::asString)).containsExactly("id");
		assertThat(orders.json().get("partitionIndexes").isArray()).isTrue();
		assertThat(orders.json().has("checkpoint")).isTrue();
		assertThat(orders.json().get("timeline").valueStream())
			.anySatisfy((event) -> assertThat(event.get("message").asString()).contains("STREAMING"));
		Response named = client.get(null, "/actuator/cdc/default:" + src + ".orders");
		assertThat(named.json().get("table").get("name").asString()).isEqualTo(src + ".orders");

		assertRefused(client.get(null, "/actuator/cdc/" + src + ".customers"), 404,
				"Table " + src + ".customers is not replicated; the tables are [" + src + ".orders, ");
		assertRefused(client.get(null, "/actuator/cdc/other:" + src + ".orders"), 404, "No pipeline is named 'other'");
		assertRefused(client.get(null, "/actuator/cdc/orders"), 400, "must be qualified with its schema");
	}

	@Test
	@Order(2)
	void aPausedTableAppliesNothingUntilResumedAndThenChecksumsEqual() throws Exception {
		client.await(null, "orders streaming", (p) -> phase(p, "orders").equals("STREAMING"));
		Response paused = client.post(OPERATOR, "/actuator/cdc/pause/" + src + ".orders");
		assertDone(paused, "pause", "PAUSED");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/pause/" + src + ".orders"), 409,
				"Cannot pause " + src + ".orders: it is already paused");

		// The binlog delivers the items row after the orders row: once it is applied, a streaming
		// orders table would have applied its row too.
		db.server().execute(src, "INSERT INTO orders VALUES (4, 'd')", "INSERT INTO items VALUES (4, 'd')");
		Await.until("items row 4 applied", WAIT, () -> rows(dst + ".items") == 4);
		assertDone(client.post(OPERATOR, "/actuator/cdc/flush/" + src + ".orders"), "flush", "PAUSED");
		assertThat(rows(dst + ".orders")).as("rows of the paused table").isEqualTo(3);

		Response resumed = client.post(OPERATOR, "/actuator/cdc/resume/" + src + ".orders");
		assertThat(resumed.status()).as(resumed.body()).isEqualTo(200);
		assertThat(resumed.json().get("table").get("lastAction").get("name").asString()).isEqualTo("resume");
		assertThat(resumed.json().get("table").get("lastAction").get("detail").asString()).endsWith("(by operator)");
		client.await(null, "orders streaming again", (p) -> phase(p, "orders").equals("STREAMING"));
		awaitEqual("orders");
		assertThat(client.get(null, "/actuator/cdc/" + src + ".orders").json().get("timeline").valueStream()
			.filter((event) -> event.get("kind").asString().equals("ACTION"))
			.map((event) -> event.get("message").asString().split(":")[0] + " by " + event.path("by").asString()))
			.as("the actions in the table's timeline, with who ran them")
			.containsSubsequence("pause by operator", "resume by operator");

		Response checksum = client.post(OPERATOR, "/actuator/cdc/checksum/" + src + ".orders");
		assertThat(checksum.status()).as(checksum.body()).isEqualTo(200);
		assertThat(checksum.json().get("table").get("checksum").get("state").asString()).isIn("RUNNING", "DONE");
		JsonNode done = table(client.await(null, "orders checksum done",
				(p) -> table(p, "orders").get("checksum").get("state").asString().equals("DONE")), "orders");
		assertThat(done.get("checksum").get("rowsChecked").asLong()).isEqualTo(4);
		assertThat(done.get("checksum").get("chunksRecheckedStillDiffering").asLong()).isZero();
		assertThat(client.get(null, "/actuator/cdc/" + src + ".orders").json().get("timeline").valueStream())
			.anySatisfy((event) -> {
				assertThat(event.get("kind").asString()).isEqualTo("ACTION");
				assertThat(event.get("message").asString()).startsWith("checksum");
				assertThat(event.path("by").asString()).isEqualTo(OPERATOR);
			})
			.anySatisfy((event) -> assertThat(event.get("kind").asString()).isEqualTo("CHECKSUM"));
	}

	@Test
	@Order(3)
	void aResnapshotCopiesTheTableAgain() throws Exception {
		client.await(null, "items streaming", (p) -> phase(p, "items").equals("STREAMING"));
		// A difference the stream would never repair.
		db.server().execute(dst, "DELETE FROM items WHERE id = 2");
		assertDone(client.post(OPERATOR, "/actuator/cdc/resnapshot/" + src + ".items"), "resnapshot", null);
		client.await(null, "items streaming after its copy", (p) -> phase(p, "items").equals("STREAMING"));
		awaitEqual("items");
	}

	@Test
	@Order(4)
	void aFailedTableRestartsOnceItsCauseIsFixed() throws Exception {
		client.await(null, "broken failed", (p) -> phase(p, "broken").equals("FAILED"));
		assertRefused(client.post(OPERATOR, "/actuator/cdc/restart/" + src + ".broken"), 409, "does not match source");
		db.server().execute(dst, "DROP TABLE broken");
		assertDone(client.post(OPERATOR, "/actuator/cdc/restart/" + src + ".broken"), "restart", null);
		client.await(null, "broken streaming", (p) -> phase(p, "broken").equals("STREAMING"));
		awaitEqual("broken");
	}

	@Test
	@Order(5)
	void actionsOnAllTablesActWhereTheyApply() throws Exception {
		client.await(null, "every table streaming", everyTable("STREAMING"));
		JsonNode paused = client.post(OPERATOR, "/actuator/cdc/pause").json();
		assertThat(paused.get("action").asString()).isEqualTo("pause");
		assertThat(paused.get("results").size()).isEqualTo(3);
		assertThat(paused.get("results").valueStream()).allSatisfy((result) -> {
			assertThat(result.get("done").asBoolean()).as("%s", result).isTrue();
			assertThat(result.get("table").get("phase").asString()).isEqualTo("PAUSED");
		});

		Response resumed = client.post(OPERATOR, "/actuator/cdc/resume");
		assertThat(resumed.status()).as(resumed.body()).isEqualTo(200);
		db.server().execute(src, "UPDATE orders SET v = 'z'", "DELETE FROM items WHERE id = 1");
		client.await(null, "every table streaming again", everyTable("STREAMING"));
		assertThat(client.post(OPERATOR, "/actuator/cdc/flush").status()).isEqualTo(200);
		awaitEqual("orders");
		awaitEqual("items");

		Response restarted = client.post(OPERATOR, "/actuator/cdc/restart");
		assertThat(restarted.status()).as("no table has failed").isEqualTo(409);
		assertThat(restarted.json().get("results").valueStream()).allSatisfy((result) -> {
			assertThat(result.get("done").asBoolean()).isFalse();
			assertThat(result.get("message").asString()).contains("only a failed or dropped table can be restarted");
		});

		assertThat(client.post(OPERATOR, "/actuator/cdc/checksum").status()).isEqualTo(200);
		client.await(null, "every checksum done",
				(p) -> p.get("tables").valueStream()
					.allMatch((t) -> t.get("checksum").get("state").asString().equals("DONE")));
		Response copied = client.post(OPERATOR, "/actuator/cdc/resnapshot");
		assertThat(copied.status()).as(copied.body()).isEqualTo(200);
		assertThat(copied.json().get("results").valueStream()).allSatisfy((result) -> assertThat(
				result.get("table").get("lastAction").get("detail").asString()).contains("(by operator)"));
		client.await(null, "every table streaming after its copy", everyTable("STREAMING"));
		awaitEqual("broken");
	}

	@Test
	@Order(6)
	void actionsNeedASignedInUserWithTheAdminRole() throws Exception {
		client.await(null, "orders streaming", (p) -> phase(p, "orders").equals("STREAMING"));
		assertRefused(client.post(null, "/actuator/cdc/pause/" + src + ".orders"), 401,
				"Running actions on /actuator/cdc needs a signed-in user with role CDC_ADMIN (cdc.admin.role)");
		assertRefused(client.post("viewer", "/actuator/cdc/pause/" + src + ".orders"), 403,
				"needs role CDC_ADMIN (cdc.admin.role), which user 'viewer' does not have");
		assertRefused(client.post("viewer", "/actuator/cdc/pause"), 403, "user 'viewer'");
		assertThat(phase(client.get("viewer", "/actuator/cdc").json().get("pipelines").get(0), "orders"))
			.as("no refused action changed anything").isEqualTo("STREAMING");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/explode/" + src + ".orders"), 400,
				"Unknown action 'explode'; the actions are [pause, resume, flush, resnapshot, restart, checksum]");
	}

	@Test
	@Order(7)
	void aTableIsAddedToTheRunningPipelineAndCopied() throws Exception {
		db.server().execute(src, "CREATE TABLE added (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO added VALUES (1, 'a'), (2, 'b')");
		String add = "/actuator/cdc/tables/" + src + ".added/" + dst + ".added_copy";
		assertRefused(client.post("viewer", add), 403, "user 'viewer'");
		assertDone(client.post(OPERATOR, add), "add", null);
		client.await("viewer", "the added table streaming", (pipeline) -> "STREAMING".equals(phase(pipeline, "added")));
		db.server().execute(src, "INSERT INTO added VALUES (3, 'c')", "UPDATE added SET v = 'z' WHERE id = 1");
		Await.until("the added table copied", WAIT, () -> TableComparison.compare(db.dataSource(null), src + ".added",
				db.dataSource(null), dst + ".added_copy").equal());
		assertThat(table(client.get("viewer", "/actuator/cdc").json().get("pipelines").get(0), "added")
			.get("lastAction").get("detail").asString()).contains("added on request").contains("(by " + OPERATOR + ")");
		assertRefused(client.post(OPERATOR, add), 409, "it is replicated already");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/tables/" + src + ".missing/" + dst + ".missing"), 404,
				"the source has no such table");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/tables/" + src + ".other"), 400, "name its target table");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/tables/" + src + ".other/" + dst + ".orders"), 409,
				"is taken");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/tables/other/" + dst + ".x"), 400,
				"must be qualified with its schema");
		assertRefused(client.post(OPERATOR, "/actuator/cdc/nothing/" + src + ".other/" + dst + ".x"), 404, "Unknown path");
	}

	@Test
	@Order(8)
	void noResponseAndNoLogLineHoldsAPassword(CapturedOutput output) throws Exception {
		client.get(null, "/actuator/cdc");
		client.get(null, "/actuator/cdc/" + src + ".orders");
		assertThat(client.bodies()).hasSizeGreaterThan(20)
			.anySatisfy((body) -> assertThat(body).contains("\"source\":{\"host\":"))
			.allSatisfy((body) -> assertThat(body).doesNotContain(SOURCE_PASSWORD).doesNotContain(TARGET_PASSWORD));
		String log = logs + output.getAll();
		assertThat(log).contains("Action pause default:" + src + ".orders asked by operator")
			.doesNotContain(SOURCE_PASSWORD)
			.doesNotContain(TARGET_PASSWORD);
	}

	private static void assertDone(Response response, String action, String phase) {
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		JsonNode outcome = response.json();
		assertThat(outcome.get("action").asString()).isEqualTo(action);
		assertThat(outcome.get("pipeline").asString()).isEqualTo("default");
		assertThat(outcome.get("done").asBoolean()).isTrue();
		if (phase != null) {
			assertThat(outcome.get("table").get("phase").asString()).isEqualTo(phase);
		}
		if (!action.equals("flush")) {
			JsonNode last = outcome.get("table").get("lastAction");
			assertThat(last.get("name").asString()).isEqualTo(action);
			assertThat(last.get("detail").asString()).contains("(by operator)");
		}
	}

	private static void assertRefused(Response response, int status, String message) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.json().get("status").asInt()).isEqualTo(status);
		assertThat(response.json().get("message").asString()).contains(message);
	}

	private static Predicate<JsonNode> everyTable(String phase) {
		return (pipeline) -> pipeline.get("tables").valueStream()
			.allMatch((t) -> t.get("phase").asString().equals(phase));
	}

	private static String phase(JsonNode pipeline, String table) {
		return table(pipeline, table).get("phase").asString();
	}

	private static JsonNode table(JsonNode pipeline, String table) {
		return pipeline.get("tables").valueStream()
			.filter((t) -> t.get("name").asString().equals(src + "." + table))
			.findFirst()
			.orElseThrow();
	}

	private static long rows(String table) throws Exception {
		try (Connection connection = db.dataSource(null).getConnection();
				Statement query = connection.createStatement();
				ResultSet result = query.executeQuery("SELECT COUNT(*) FROM " + table)) {
			result.next();
			return result.getLong(1);
		}
	}

	private static void awaitEqual(String table) throws Exception {
		Await.until(table + " equal in source and target", WAIT, () -> TableComparison
			.compare(db.dataSource(null), src + "." + table, db.dataSource(null), dst + "." + table)
			.equal());
	}

}
