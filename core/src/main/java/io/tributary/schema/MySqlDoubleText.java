package io.tributary.schema;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Renders a JSON double as MySQL 8.0 renders it in a SELECT. The digits are the fewest that read
 * back as the same double (nearest to it when several do). They are laid out in plain notation
 * when the decimal point falls from 14 places left of the first digit to 15 places right of it,
 * or inside the digits ({@code 0.000000000000001}, {@code 100000000000000.0},
 * {@code 1234567890123456.8}), and otherwise as {@code d.ddde[-]x} ({@code 1e-16}, {@code 1e15},
 * {@code 1.5e300}); a plain number without a fraction gets {@code .0}, so {@code 1.0} stays apart
 * from the integer {@code 1}, and zero keeps its sign ({@code -0.0}).
 */
final class MySqlDoubleText {

	/** Leftmost decimal point position written in plain notation: {@code 0.00000000000000d}. */
	private static final int MIN_PLAIN_POINT = -14;

	/** Rightmost decimal point position written in plain notation for digits that end before it. */
	private static final int MAX_PLAIN_POINT = 15;

	/** No double needs more significant digits than this to be read back exactly. */
	private static final int MAX_DIGITS = 17;

	private MySqlDoubleText() {
	}

	static void append(StringBuilder out, double value) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			throw new IllegalArgumentException("A JSON double cannot be " + value);
		}
		if (value == 0) {
			out.append((Double.doubleToRawLongBits(value) < 0) ? "-0.0" : "0.0");
			return;
		}
		if (value < 0) {
			out.append('-');
		}
		BigDecimal shortest = shortest(Math.abs(value)).stripTrailingZeros();
		String digits = shortest.unscaledValue().toString();
		// The value is 0.<digits> times ten to the power of point.
		int point = digits.length() - shortest.scale();
		if (point >= MIN_PLAIN_POINT && (point <= MAX_PLAIN_POINT || digits.length() > point)) {
			plain(out, digits, point);
		}
		else {
			scientific(out, digits, point);
		}
	}

	/** Returns the decimal with the fewest digits that reads back as {@code value}. */
	private static BigDecimal shortest(double value) {
		BigDecimal exact = new BigDecimal(value);
		for (int precision = 1; precision < MAX_DIGITS; precision++) {
			BigDecimal nearest = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
			if (nearest.doubleValue() == value) {
				return nearest;
			}
			// Just above a power of two the doubles below are closer together than those above, so the
			// nearest candidate can miss while the one on the other side still reads back.
			RoundingMode otherSide = (nearest.compareTo(exact) < 0) ? RoundingMode.UP : RoundingMode.DOWN;
			BigDecimal other = exact.round(new MathContext(precision, otherSide));
			if (other.doubleValue() == value) {
				return other;
			}
		}
		return exact.round(new MathContext(MAX_DIGITS, RoundingMode.HALF_EVEN));
	}

	private static void plain(StringBuilder out, String digits, int point) {
		if (point <= 0) {
			out.append("0.");
			out.append("0".repeat(-point));
			out.append(digits);
		}
		else if (point < digits.length()) {
			out.append(digits, 0, point).append('.').append(digits, point, digits.length());
		}
		else {
			out.append(digits);
			out.append("0".repeat(point - digits.length()));
			out.append(".0");
		}
	}

	private static void scientific(StringBuilder out, String digits, int point) {
		out.append(digits.charAt(0));
		if (digits.length() > 1) {
			out.append('.').append(digits, 1, digits.length());
		}
		out.append('e').append(point - 1);
	}

}
