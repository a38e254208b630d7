package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExternalServerTest {

	@Test
	void parsesHostPortAndQueryCredentials() {
		ExternalServer server = ExternalServer.parse("jdbc:mysql://db.example:3307/?user=root&password=x%26y");
		assertThat(server.host()).isEqualTo("db.example");
		assertThat(server.port()).isEqualTo(3307);
		assertThat(server.username()).isEqualTo("root");
		assertThat(server.password()).isEqualTo("x&y");
		assertThat(server.extraUrlParameters()).isEmpty();
		assertThat(server.knownFlavor()).isNull();
	}

	@Test
	void defaultsPortAndKeepsOtherParameters() {
		ExternalServer server = ExternalServer.parse("jdbc:mysql://10.0.0.5/app?user=u&sslMode=REQUIRED&password=");
		assertThat(server.host()).isEqualTo("10.0.0.5");
		assertThat(server.port()).isEqualTo(3306);
		assertThat(server.username()).isEqualTo("u");
		assertThat(server.password()).isEmpty();
		assertThat(server.extraUrlParameters()).isEqualTo("sslMode=REQUIRED");
	}

	@Test
	void acceptsUserInfoAndIpv6() {
		ExternalServer server = ExternalServer.parse("jdbc:mariadb://admin:s3cr%40t@[::1]:3310");
		assertThat(server.host()).isEqualTo("::1");
		assertThat(server.port()).isEqualTo(3310);
		assertThat(server.username()).isEqualTo("admin");
		assertThat(server.password()).isEqualTo("s3cr@t");
	}

	@Test
	void rejectsUnusableUrlsWithoutLeakingPasswords() {
		assertThatThrownBy(() -> ExternalServer.parse("jdbc:postgresql://h/?user=a&password=topsecret"))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageNotContaining("topsecret");
		assertThatThrownBy(() -> ExternalServer.parse("jdbc:mysql://h:99999/?user=a"))
				.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> ExternalServer.parse("jdbc:mysql://h:3306/?password=topsecret"))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageNotContaining("topsecret");
	}
}
