package io.tributary.autoconfigure.endpoint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.tributary.test.Await;

/**
 * Calls {@code /actuator/cdc} over HTTP, as a user (HTTP basic) or anonymously, and keeps every
 * response body it received.
 */
final class EndpointClient {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<String> bodies = new CopyOnWriteArrayList<>();

	private int port;

	void port(int port) {
		this.port = port;
	}

	/** Every response body received so far. */
	List<String> bodies() {
		return this.bodies;
	}

	Response get(String user, String path) throws Exception {
		return send(user, HttpRequest.newBuilder(uri(path)).GET());
	}

	Response post(String user, String path) throws Exception {
		return send(user, HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
	}

	/** Reads the overview as {@code user} until {@code condition} holds, and returns its first pipeline. */
	JsonNode await(String user, String what, Predicate<JsonNode> condition) throws Exception {
		return Await.value(what, Duration.ofMinutes(1), () -> get(user, "/actuator/cdc").json().get("pipelines").get(0),
				condition);
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private Response send(String user, HttpRequest.Builder request) throws Exception {
		if (user != null) {
			String credentials = user + ":" + SecuredApplication.USER_PASSWORD;
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		this.bodies.add(response.body());
		return new Response(response.statusCode(), response.body());
	}

	/**
	 * A response.
	 *
	 * @param status HTTP status
	 * @param body the body as received
	 */
	record Response(int status, String body) {

		JsonNode json() {
			return EndpointClient.json.readTree(this.body);
		}

		@Override
		public String toString() {
			return this.status + " " + this.body;
		}

	}

}
