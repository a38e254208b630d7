package io.tributary.schema;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Binary JSON values as MySQL 8.0.31 writes them to the binlog, each rendered to the text its
 * SELECT returns for the same value.
 */
class MySqlJsonTextTest {

	@Test
	void separatesMembersAndKeepsTheStoredKeyOrder() {
		// '{"b": 1, "a": 2, "aa": 3, "": 4}': the server stores keys shortest first.
		assertRendered("00040024002000000020000100210001002200020005040005020005010005030061626161",
				"{\"\": 4, \"a\": 2, \"b\": 1, \"aa\": 3}");
		// A GeoJSON polygon: objects, nested arrays and doubles without a fraction.
		assertRendered("000200a8001200040016000b000c210002290074797065636f6f7264696e6174657307506f6c79676f6e01007f0002"
				+ "070004007800021000022a00024400025e0002001a000b0a000b12000000000000000000000000000000000002001a000b0a"
				+ "000b1200000000000000f03f000000000000000002001a000b0a000b1200000000000000f03f000000000000f03f02001a00"
				+ "0b0a000b120000000000000000000000000000000000",
				"{\"type\": \"Polygon\", \"coordinates\": [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]]}");
	}

	@Test
	void escapesStringsAsTheServerDoes() {
		assertRendered("0c3571756f74652022206261636b736c617368205c20736c617368202f207461622009206e6c200a206372200d20627"
				+ "32008206666200c", "\"quote \\\" backslash \\\\ slash / tab \\t nl \\n cr \\r bs \\b ff \\f\"");
		// Other control characters in lower-case hex; DEL as it is.
		assertRendered("0c0f63746c2001201f207f200020656e64", "\"ctl \\u0001 \\u001f \u007f \\u0000 end\"");
		assertRendered("0c29756e69636f646520c3a920c3bc20e697a5e69cac20f09f988020c3a920e280a820e280a920f09f9880",
				"\"unicode \u00e9 \u00fc \u65e5\u672c \uD83D\uDE00 \u00e9 \u2028 \u2029 \uD83D\uDE00\"");
	}

	@Test
	void rendersNumbersOfEveryWidth() {
		assertRendered("08005ed0b2", "3000000000");
		assertRendered("0203001500080d0008110006050070110100005ed0b2", "[70000, 3000000000, 5]");
		assertRendered("0b000000000000f043", "1.8446744073709552e19");
		assertRendered("0b0000000000000080", "-0.0");
		assertRendered("0a" + "ffffffffffffffff", "18446744073709551615");
		assertRendered("09" + "0000000000000080", "-9223372036854775808");
		assertRendered("05" + "0080", "-32768");
	}

	@Test
	void readsTheValuesALargeContainerHoldsInItsEntries() {
		// A large array: 4-byte count and size, then entries of a type and 4 bytes, which hold 32-bit
		// integers themselves: [70000 unsigned, 3000000000 unsigned, -2000000000, true].
		assertRendered("03" + "04000000" + "1c000000" + "0870110100" + "08005ed0b2" + "07006cca88" + "0401000000",
				"[70000, 3000000000, -2000000000, true]");
	}

	@Test
	void keepsTheScaleOfADecimal() {
		assertRendered("0ff60403028132", "1.50");
		assertRendered("0ff6080d048000007b1194", "123.4500");
		assertRendered("0ff614271e7ffffffffffffffffffffffffffffffffffe", "-0.000000000000000000000000000001");
	}

	@Test
	void writesTemporalValuesWithSixFractionalDigits() {
		assertRendered("0f0c0800000019761f9519", "\"2015-01-15 23:24:25.000000\"");
		assertRendered("0f0c083f420ffb7efff37e", "\"9999-12-31 23:59:59.999999\"");
		assertRendered("0f070820a10700a0c2b219", "\"2024-03-01 10:00:00.500000\"");
		assertRendered("0f0a0800000000001e9519", "\"2015-01-15\"");
		assertRendered("0f0b08e05ef8ffffffffff", "\"-00:00:00.500000\"");
		assertRendered("0f0b08ecf5f34737ffffff", "\"-12:34:56.789012\"");
		// The server stored CAST('-838:59:59' AS TIME) with these hours, and shows them.
		assertRendered("0f0b080000000591d8ffff", "\"-630:59:59.000000\"");
		assertRendered("0203002b000f0d000f17000f21000c0800000019761f95190b0800000000f0ffffff0a0800000000001e9519",
				"[\"2015-01-15 23:24:25.000000\", \"-01:00:00.000000\", \"2015-01-15\"]");
	}

	@Test
	void writesOtherMySqlValuesAsTheirTypeAndBase64() {
		assertRendered("0f0f02cafe", "\"base64:type15:yv4=\"");
		assertRendered("0f100202aa", "\"base64:type16:Aqo=\"");
		assertRendered("0ffe03010000", "\"base64:type254:AQAA\"");
		assertRendered("00010013000b0004000f0f00626c6f620f02cafe", "{\"blob\": \"base64:type15:yv4=\"}");
		assertRendered("02020013000f0a000f0e000f0200ff0f03010000", "[\"base64:type15:AP8=\", \"base64:type15:AQAA\"]");
		// 57 bytes fill one line of 76 characters; the 58th starts another.
		String line = "q6ur".repeat(19);
		assertRendered("0f0f39" + "ab".repeat(57), "\"base64:type15:" + line + "\"");
		assertRendered("0f0f3a" + "ab".repeat(58), "\"base64:type15:" + line + "\\nqw==\"");
	}

	@Test
	void refusesBytesThatAreNotBinaryJson() {
		assertThatIllegalArgumentException().isThrownBy(() -> MySqlJsonText.render(bytes("0d00")))
			.withMessageContaining("type 13");
		assertThatIllegalArgumentException().isThrownBy(() -> MySqlJsonText.render(bytes("0203001500080d00")))
			.withMessageContaining("ends early");
		assertThatIllegalArgumentException().isThrownBy(() -> MySqlJsonText.render(bytes("0201000600087f00")))
			.withMessageContaining("past its container");
	}

	private static void assertRendered(String hex, String text) {
		assertThat(MySqlJsonText.render(bytes(hex))).isEqualTo(text);
	}

	private static byte[] bytes(String hex) {
		return HexFormat.of().parseHex(hex);
	}

}
