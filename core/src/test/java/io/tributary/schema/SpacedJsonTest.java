package io.tributary.schema;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpacedJsonTest {

	@Test
	void spacesSeparatorsLikeMySqlRendersJson() {
		assertThat(Values.spacedJson("{\"qty\":16,\"tags\":[\"t2\",\"x\"],\"a\":{\"zip\":null},\"e\":[],\"o\":{}}"))
			.isEqualTo("{\"qty\": 16, \"tags\": [\"t2\", \"x\"], \"a\": {\"zip\": null}, \"e\": [], \"o\": {}}");
	}

	@Test
	void leavesStringsAlone() {
		assertThat(Values.spacedJson("{\"a:b,c\":\"x,\\\"y:\\\\\",\"n\":1}"))
			.isEqualTo("{\"a:b,c\": \"x,\\\"y:\\\\\", \"n\": 1}");
		assertThat(Values.spacedJson("\"plain, text: here\"")).isEqualTo("\"plain, text: here\"");
		assertThat(Values.spacedJson("3.5")).isEqualTo("3.5");
	}

}
