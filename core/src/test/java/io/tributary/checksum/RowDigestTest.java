package io.tributary.checksum;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.schema.Column;
import io.tributary.schema.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

class RowDigestTest {

	private static final Column JSON = new Column("doc", 1, "json", "json", ValueKind.JSON, false, null, 0, 0,
			List.of(), true);

	@Test
	void theSourceRendersJsonAsAMySqlJsonTargetHoldsIt() {
		assertThat(RowDigest.normalized(JSON, "json", true))
			.isEqualTo("CAST(CAST(CAST(`doc` AS CHAR) AS JSON) AS CHAR)");
		assertThat(RowDigest.normalized(JSON, "json", false)).isEqualTo("CAST(`doc` AS CHAR)");
	}

	@Test
	void aTargetThatKeepsTextIsComparedWithTheSourcesText() {
		assertThat(RowDigest.normalized(JSON, "longtext", true)).isEqualTo("CAST(`doc` AS CHAR)");
		assertThat(RowDigest.normalized(JSON, "longtext", false)).isEqualTo("CAST(`doc` AS CHAR)");
	}

}
