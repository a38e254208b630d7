package io.tributary.schema;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Doubles rendered as MySQL 8.0.31 renders the same JSON doubles in a SELECT. */
class MySqlDoubleTextTest {

	@Test
	void writesTheFewestDigitsThatReadBack() {
		assertText(0.1 + 0.2, "0.30000000000000004");
		assertText(3.14, "3.14");
		assertText(Double.MIN_VALUE, "5e-324");
		assertText(Double.MAX_VALUE, "1.7976931348623157e308");
		assertText(Double.MIN_NORMAL, "2.2250738585072014e-308");
		assertText(Math.nextDown(Double.MIN_NORMAL), "2.225073858507201e-308");
		assertText(Math.pow(2, 60), "1.152921504606847e18");
		assertText((double) 1.1f, "1.100000023841858");
	}

	@Test
	void marksWholeNumbersAndZeroAsDoubles() {
		assertText(1, "1.0");
		assertText(-1, "-1.0");
		assertText(0.0, "0.0");
		assertText(-0.0, "-0.0");
		assertText(1e14, "100000000000000.0");
		assertText(1.23e12, "1230000000000.0");
	}

	@Test
	void switchesToExponentsOutsideTheServersPlainRange() {
		assertText(1e15, "1e15");
		assertText(1.5e15, "1.5e15");
		assertText(1.2345678901234568e16, "1.2345678901234568e16");
		assertText(1234567890123456.8, "1234567890123456.8");
		assertText(123456789012345.6, "123456789012345.6");
		assertText(1e20, "1e20");
		assertText(-1e20, "-1e20");
		assertText(1.5e300, "1.5e300");
		assertText(1e-15, "0.000000000000001");
		assertText(1.2345678901234567e-15, "0.0000000000000012345678901234568");
		assertText(-1.2345678901234567e-15, "-0.0000000000000012345678901234568");
		assertText(1e-16, "1e-16");
		assertText(1.23456e-8, "0.0000000123456");
		assertText(-2.5e-300, "-2.5e-300");
		assertText(-1e-20, "-1e-20");
	}

	private static void assertText(double value, String text) {
		StringBuilder out = new StringBuilder();
		MySqlDoubleText.append(out, value);
		assertThat(out).as("%s", value).hasToString(text);
	}

}
