package io.tributary.apply;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TargetDriverPropertiesTest {

	private static final Map<String, String> SERVER_SIDE = TargetDriverProperties.serverSide();

	@Test
	void aMariaDbTargetPreparesOnTheServerAndAMySqlTargetOnTheClient() {
		assertThat(TargetDriverProperties.forServer("10.11.5-MariaDB-log")).isEqualTo(SERVER_SIDE)
			.containsEntry("useServerPrepStmts", "true")
			.containsEntry("cachePrepStmts", "true");
		assertThat(TargetDriverProperties.forServer("8.0.31")).isEmpty();
	}

	@Test
	void aUrlWithoutPropertiesGetsThemAll() {
		assertThat(TargetDriverProperties.missingFrom("jdbc:mysql://db:3306/replica", SERVER_SIDE))
			.isEqualTo(SERVER_SIDE);
	}

	@Test
	void aPropertyTheUrlSetsKeepsTheUrlsValueWhateverItsCase() {
		assertThat(TargetDriverProperties.missingFrom(
				"jdbc:mysql://db/replica?sslMode=REQUIRED&USESERVERPREPSTMTS=false&prepStmtCacheSize=8", SERVER_SIDE))
			.containsOnlyKeys("cachePrepStmts", "prepStmtCacheSqlLimit");
		assertThat(TargetDriverProperties.missingFrom("jdbc:mysql://db/replica?cachePrepStmts=false", SERVER_SIDE))
			.doesNotContainKey("cachePrepStmts")
			.containsKey("useServerPrepStmts");
	}

	@Test
	void aLongerPropertyNameDoesNotHideAShorterOne() {
		assertThat(TargetDriverProperties.missingFrom("jdbc:mysql://db/replica?xuseServerPrepStmts=false", SERVER_SIDE))
			.containsKey("useServerPrepStmts");
	}

}
