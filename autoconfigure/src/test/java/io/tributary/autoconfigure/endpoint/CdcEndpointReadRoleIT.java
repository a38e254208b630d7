package io.tributary.autoconfigure.endpoint;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.tributary.autoconfigure.endpoint.EndpointClient.Response;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/cdc} with {@code cdc.admin.read-role} set and actions left disabled (the
 * default): reading needs a signed-in user with the read role (or the action role), and no user
 * may run an action.
 */
@ExtendWith(DatabaseExtension.class)
@SpringBootTest(classes = SecuredApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "cdc.admin.read-role=CDC_READ", "management.endpoints.web.exposure.include=cdc",
				"spring.autoconfigure.exclude="
						+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@DirtiesContext
class CdcEndpointReadRoleIT {

	private static final EndpointClient client = new EndpointClient();

	private static TestDatabase db;

	private static String src;

	private static String dst;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void table(TestDatabase database) {
		db = database;
		src = db.schema("src");
		dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE orders (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO orders VALUES (1, 'a')");
	}

	@DynamicPropertySource
	static void connections(DynamicPropertyRegistry registry) {
		registry.add("cdc.source.host", () -> db.server().host());
		registry.add("cdc.source.port", () -> db.server().port());
		registry.add("cdc.source.username", () -> db.server().username());
		registry.add("cdc.source.password", () -> db.server().password());
		registry.add("cdc.target.url", () -> db.jdbcUrl(dst));
		registry.add("cdc.target.username", () -> db.server().username());
		registry.add("cdc.target.password", () -> db.server().password());
		registry.add("cdc.tables[0].source", () -> src + ".orders");
	}

	@BeforeEach
	void client() {
		client.port(this.port);
	}

	@Test
	void readingNeedsTheReadRole() throws Exception {
		assertRefused(client.get(null, "/actuator/cdc"), 401,
				"Reading /actuator/cdc needs a signed-in user with role CDC_READ (cdc.admin.read-role)");
		assertRefused(client.get(null, "/actuator/cdc/" + src + ".orders"), 401, "CDC_READ");
		assertRefused(client.get("viewer", "/actuator/cdc"), 403,
				"needs role CDC_READ (cdc.admin.read-role), which user 'viewer' does not have");
		assertThat(client.get("reader", "/actuator/cdc").status()).isEqualTo(200);
		assertThat(client.get("reader", "/actuator/cdc/" + src + ".orders").status()).isEqualTo(200);
		assertThat(client.get("operator", "/actuator/cdc").status()).as("the action role reads too").isEqualTo(200);
	}

	@Test
	void actionsAreRefusedUntilTheyAreEnabled() throws Exception {
		client.await("reader", "orders streaming", (pipeline) -> pipeline.get("tables").get(0).get("phase")
			.asString()
			.equals("STREAMING"));
		String disabled = "Actions are disabled: set cdc.admin.actions-enabled=true";
		assertRefused(client.post("operator", "/actuator/cdc/pause/" + src + ".orders"), 403, disabled);
		assertRefused(client.post("operator", "/actuator/cdc/pause"), 403, disabled);
		assertRefused(client.post(null, "/actuator/cdc/pause"), 401, "signed-in user with role CDC_ADMIN");
		assertThat(client.get("reader", "/actuator/cdc/" + src + ".orders").json().get("table").get("phase")
			.asString()).isEqualTo("STREAMING");
	}

	private static void assertRefused(Response response, int status, String message) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.json().get("status").asInt()).isEqualTo(status);
		assertThat(response.json().get("message").asString()).contains(message);
	}

}
