package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestDatabaseTest {

	static class ReplicationIT {}

	static class AVeryLongTestClassNameThatKeepsGoingAndGoingWellBeyondTheLimitOfSixtyFourCharactersIT {}

	static class AVeryLongTestClassNameThatKeepsGoingAndGoingWellBeyondTheLimitOfSixtyFourCharactersIT2 {}

	static class Weird$Name {}

	@Test
	void schemaNameFollowsClassNameAndSuffix() {
		assertThat(TestDatabase.schemaName(ReplicationIT.class, "src")).isEqualTo("t_replicationit_src");
		assertThat(TestDatabase.schemaName(ReplicationIT.class, null)).isEqualTo("t_replicationit");
		assertThat(TestDatabase.schemaName(ReplicationIT.class, "")).isEqualTo("t_replicationit");
		assertThat(TestDatabase.schemaName(ReplicationIT.class, "Dst-2")).isEqualTo("t_replicationit_dst_2");
		assertThat(TestDatabase.schemaName(Weird$Name.class, "x")).isEqualTo("t_weird_name_x");
	}

	@Test
	void longNamesAreShortenedButStayDistinct() {
		String first = TestDatabase.schemaName(
				AVeryLongTestClassNameThatKeepsGoingAndGoingWellBeyondTheLimitOfSixtyFourCharactersIT.class, "src");
		String second = TestDatabase.schemaName(
				AVeryLongTestClassNameThatKeepsGoingAndGoingWellBeyondTheLimitOfSixtyFourCharactersIT2.class, "src");
		assertThat(first).hasSize(64).matches("[a-z0-9_]+").startsWith("t_averylong").endsWith("_src");
		assertThat(second).hasSize(64).matches("[a-z0-9_]+");
		assertThat(first).isNotEqualTo(second);
	}
}
