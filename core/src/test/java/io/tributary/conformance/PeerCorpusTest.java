package io.tributary.conformance;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeerCorpusTest {

	@Test
	void splitsAsTheCorpusAuthorsLoaderDoes() {
		String file = """
				-- a header
				CREATE TABLE t (
				  id INT, -- the key
				  v VARCHAR(10)
				);
				   INSERT INTO t VALUES (1, 'a');
				CREATE FUNCTION f() RETURNS INT
				BEGIN
				 DECLARE x INT$$
				 RETURN 1$$
				END$$
				;
				""";
		assertThat(PeerCorpus.statements(file)).containsExactly("CREATE TABLE t (\nid INT,\nv VARCHAR(10)\n)",
				"INSERT INTO t VALUES (1, 'a')",
				"CREATE FUNCTION f() RETURNS INT\nBEGIN\nDECLARE x INT;\nRETURN 1;\nEND;");
	}

	@Test
	void theTwoCharsetFilesGetTheirSchemaCharset() {
		assertThat(PeerCorpus.schemaCharset("db_default_charset")).isEqualTo("utf8mb4");
		assertThat(PeerCorpus.schemaCharset("db_default_charset_noutf")).isEqualTo("latin2");
		assertThat(PeerCorpus.schemaCharset("json_test")).isNull();
	}

}
