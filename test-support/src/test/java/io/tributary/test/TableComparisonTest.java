package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class TableComparisonTest {

	@Test
	void integerKeysCompareNumericallyAcrossLongAndBigInteger() {
		Object small = TableComparison.parseInteger("9");
		Object big = TableComparison.parseInteger("18446744073709551615");
		Object negative = TableComparison.parseInteger("-9223372036854775808");
		assertThat(small).isEqualTo(9L);
		assertThat(big).isEqualTo(new BigInteger("18446744073709551615"));
		assertThat(negative).isEqualTo(Long.MIN_VALUE);
		assertThat(TableComparison.compareComponent(small, big)).isNegative();
		assertThat(TableComparison.compareComponent(negative, small)).isNegative();
		assertThat(TableComparison.compareComponent(10L, 9L)).isPositive();
	}

	@Test
	void bytesCompareUnsignedAndShorterPrefixFirst() {
		assertThat(TableComparison.compareComponent(new byte[] {(byte) 0x80}, new byte[] {0x7f})).isPositive();
		assertThat(TableComparison.compareComponent(new byte[] {1}, new byte[] {1, 0})).isNegative();
		byte[] upper = "B".getBytes(StandardCharsets.UTF_8);
		byte[] lower = "a".getBytes(StandardCharsets.UTF_8);
		assertThat(TableComparison.compareComponent(upper, lower)).isNegative();
	}

	@Test
	void decimalsAndCompositeKeys() {
		assertThat(TableComparison.compareComponent(new BigDecimal("1.10"), new BigDecimal("1.9"))).isNegative();
		assertThat(TableComparison.compareKeys(new Object[] {1L, "b"}, new Object[] {1L, "a"})).isPositive();
		assertThat(TableComparison.compareKeys(new Object[] {1L, "a"}, new Object[] {2L, "a"})).isNegative();
		assertThat(TableComparison.compareKeys(new Object[] {1L, "a"}, new Object[] {1L, "a"})).isZero();
	}

	@Test
	void keyKindsByType() {
		assertThat(TableComparison.KeyKind.of("bigint")).isEqualTo(TableComparison.KeyKind.INTEGER);
		assertThat(TableComparison.KeyKind.of("DECIMAL")).isEqualTo(TableComparison.KeyKind.DECIMAL);
		assertThat(TableComparison.KeyKind.of("datetime")).isEqualTo(TableComparison.KeyKind.TEMPORAL);
		assertThat(TableComparison.KeyKind.of("varbinary")).isEqualTo(TableComparison.KeyKind.BYTES);
		assertThat(TableComparison.KeyKind.of("varchar")).isEqualTo(TableComparison.KeyKind.CAST_BYTES);
		assertThat(TableComparison.KeyKind.of("time")).isEqualTo(TableComparison.KeyKind.CAST_BYTES);
	}

	@Test
	void valuesAreShownDistinguishingNullEmptyAndBinary() {
		assertThat(TableComparison.showValue(null, "varchar")).isEqualTo("NULL");
		assertThat(TableComparison.showValue(new byte[0], "varchar")).isEqualTo("''");
		assertThat(TableComparison.showValue("1.00".getBytes(StandardCharsets.US_ASCII), "decimal")).isEqualTo("1.00");
		assertThat(TableComparison.showValue(new byte[] {0, (byte) 0xff}, "blob")).isEqualTo("0x00FF");
		assertThat(TableComparison.showValue(new byte[100], "blob")).endsWith("...(100 bytes)");
	}
}
