package io.tributary.copy;

import org.junit.jupiter.api.Test;

import io.tributary.schema.RowKey;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkLedgerTest {

	@Test
	void landedWatermarkMovesOnlyOverAContiguousPrefix() {
		ChunkLedger ledger = new ChunkLedger(null);
		int first = ledger.dispatch(key(100));
		int second = ledger.dispatch(key(200));
		int third = ledger.dispatch(key(300));
		assertThat(ledger.landed()).isNull();
		assertThat(ledger.dispatched()).isEqualTo(key(300));
		ledger.land(second);
		assertThat(ledger.landed()).as("chunk 2 landed before chunk 1").isNull();
		ledger.land(first);
		assertThat(ledger.landed()).isEqualTo(key(200));
		ledger.land(third);
		assertThat(ledger.landed()).isEqualTo(key(300));
		assertThat(ledger.allLanded()).isTrue();
		assertThat(ledger.lastDispatched()).isFalse();
	}

	@Test
	void theOpenEndedLastChunkLeavesTheDispatchedBoundOpen() {
		ChunkLedger ledger = new ChunkLedger(key(50));
		assertThat(ledger.landed()).isEqualTo(key(50));
		int last = ledger.dispatch(null);
		assertThat(ledger.dispatched()).isNull();
		assertThat(ledger.lastDispatched()).isTrue();
		ledger.land(last);
		assertThat(ledger.landed()).isEqualTo(key(50));
		assertThat(ledger.allLanded()).isTrue();
	}

	private static RowKey key(long id) {
		return new RowKey(new Object[] { id });
	}

}
