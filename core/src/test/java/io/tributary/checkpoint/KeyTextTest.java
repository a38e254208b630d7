package io.tributary.checkpoint;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KeyTextTest {

	@Test
	void roundTripsEveryKeyValueType() {
		Object[] key = { 42L, new BigInteger("18446744073709551615"), new BigDecimal("-12.50"), "a,b:c \uD83D\uDE00",
				new byte[] { 0, -1, 44 }, null };
		Object[] back = KeyText.parse(KeyText.format(key));
		assertThat(back).hasSize(6);
		assertThat(back[0]).isEqualTo(42L);
		assertThat(back[1]).isEqualTo(new BigInteger("18446744073709551615"));
		assertThat(back[2]).isEqualTo(new BigDecimal("-12.50"));
		assertThat(back[3]).isEqualTo("a,b:c \uD83D\uDE00");
		assertThat((byte[]) back[4]).containsExactly(0, -1, 44);
		assertThat(back[5]).isNull();
	}

	@Test
	void rejectsTextItDidNotWrite() {
		assertThatIllegalArgumentException().isThrownBy(() -> KeyText.parse("42"));
		assertThatIllegalArgumentException().isThrownBy(() -> KeyText.parse("Q:1"));
	}

}
