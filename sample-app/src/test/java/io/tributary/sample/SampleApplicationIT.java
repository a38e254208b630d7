package io.tributary.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tributary.test.Await;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the sample as a user would and watches it through {@code /actuator/cdc} and the admin page.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.orders=20000", "sample.workload.transactions-per-second=50" })
class SampleApplicationIT {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void bothTablesStreamAndChangesKeepBeingApplied() throws Exception {
		JsonNode streaming = await((status) -> status.get("tables").size() == 2
				&& status.get("tables").valueStream().allMatch((t) -> t.get("phase").asString().equals("STREAMING")));
		assertThat(streaming.get("state").asString()).isEqualTo("RUNNING");
		assertThat(streaming.get("source").get("port").asInt()).isPositive();
		assertThat(streaming.get("position").get("delivered").asString()).startsWith("mysql-bin.");
		JsonNode orders = orders(streaming);
		assertThat(orders.get("target").asString()).isEqualTo("replica.orders");
		assertThat(orders.get("rule").asString()).as("the pattern that took it").isEqualTo("cdc.tables[0]");
		assertThat(orders.get("rowsCopied").asLong()).isGreaterThanOrEqualTo(20_000);
		// Copy speed and time left are reported while snapshotting only.
		assertThat(orders.get("copyRowsPerSecond").asDouble()).isZero();
		assertThat(orders.path("copyEtaSeconds").isMissingNode() || orders.get("copyEtaSeconds").isNull()).isTrue();
		long applied = orders.get("changesApplied").asLong();
		await((status) -> orders(status).get("changesApplied").asLong() > applied + 20);
		String page = get("/tributary");
		assertThat(page).contains("shop.orders").contains("shop.order_items").contains("STREAMING").contains("Rows/s")
			.contains("ETA");
	}

	@Test
	void checksumRunsOnRequestAndShowsInStatusAndPage() throws Exception {
		await((status) -> orders(status).get("phase").asString().equals("STREAMING"));
		HttpResponse<String> started = post("/actuator/cdc/checksum/shop.orders");
		assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
		assertThat(JsonMapper.builder().build().readTree(started.body()).get("table").get("checksum").get("state")
			.asString()).isIn("RUNNING", "DONE");
		JsonNode done = await((status) -> orders(status).get("checksum").get("state").asString()
			.equals("DONE"));
		JsonNode checksum = orders(done).get("checksum");
		assertThat(checksum.get("chunksChecked").asLong()).isPositive();
		assertThat(checksum.get("rowsChecked").asLong()).isGreaterThanOrEqualTo(20_000);
		assertThat(checksum.get("chunksRecheckedStillDiffering").asLong()).isZero();
		assertThat(checksum.get("chunksRepaired").asLong()).isZero();
		assertThat(get("/tributary")).contains("DONE: " + checksum.get("chunksChecked").asLong() + " chunks");
		assertThat(post("/actuator/cdc/explode/shop.orders").statusCode()).isEqualTo(400);
		assertThat(post("/actuator/cdc/checksum/shop.customers").statusCode()).isEqualTo(404);
	}

	/** The status of {@code shop.orders} in a pipeline's status. */
	private static JsonNode orders(JsonNode pipeline) {
		return pipeline.get("tables").valueStream().filter((t) -> t.get("name").asString().equals("shop.orders"))
			.findFirst().orElseThrow();
	}

	private HttpResponse<String> post(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Reads {@code /actuator/cdc} until its only pipeline meets the condition, and returns that pipeline. */
	private JsonNode await(Predicate<JsonNode> condition) throws Exception {
		return Await.value("a condition on /actuator/cdc", Duration.ofMinutes(2),
				() -> JsonMapper.builder().build().readTree(get("/actuator/cdc")).get("pipelines").get(0), condition);
	}

	private String get(String path) throws Exception {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response.body();
	}

}
