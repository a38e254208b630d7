package io.tributary.checkpoint;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Writes a row key (canonical values) as text for the checkpoint table and reads it back, each
 * value tagged with its type so that it returns as the same object.
 */
public final class KeyText {

	private KeyText() {
	}

	/** Encodes a key, for example {@code L:42,S:YWJj}. */
	public static String format(Object[] key) {
		StringBuilder text = new StringBuilder();
		for (Object value : key) {
			if (text.length() > 0) {
				text.append(',');
			}
			if (value == null) {
				text.append("Z:");
			}
			else if (value instanceof Long number) {
				text.append("L:").append(number);
			}
			else if (value instanceof BigInteger number) {
				text.append("I:").append(number);
			}
			else if (value instanceof BigDecimal number) {
				text.append("D:").append(number.toPlainString());
			}
			else if (value instanceof String string) {
				text.append("S:").append(Base64.getEncoder().encodeToString(string.getBytes(StandardCharsets.UTF_8)));
			}
			else if (value instanceof byte[] bytes) {
				text.append("B:").append(Base64.getEncoder().encodeToString(bytes));
			}
			else {
				throw new IllegalArgumentException("Cannot store a key value of type " + value.getClass().getName());
			}
		}
		return text.toString();
	}

	/** Decodes what {@link #format(Object[])} wrote. */
	public static Object[] parse(String text) {
		String[] parts = text.split(",", -1);
		Object[] key = new Object[parts.length];
		for (int i = 0; i < parts.length; i++) {
			String part = parts[i];
			if (part.length() < 2 || part.charAt(1) != ':') {
				throw new IllegalArgumentException("Not a stored key: '" + text + "'");
			}
			String value = part.substring(2);
			key[i] = switch (part.charAt(0)) {
				case 'Z' -> null;
				case 'L' -> Long.valueOf(value);
				case 'I' -> new BigInteger(value);
				case 'D' -> new BigDecimal(value);
				case 'S' -> new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
				case 'B' -> Base64.getDecoder().decode(value);
				default -> throw new IllegalArgumentException("Not a stored key: '" + text + "'");
			};
		}
		return key;
	}

}
