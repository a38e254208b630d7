package io.tributary.pipeline;

import io.tributary.copy.Copier;

/**
 * What tests and tools observe of one run: each snapshot chunk, each confirmed position, each
 * drain before it is applied. Set from any thread; read by the parts of the run as they go.
 */
final class RunObservers {

	private volatile Copier.ChunkObserver chunks;

	private volatile Pipeline.ConfirmObserver confirms;

	private volatile Pipeline.ApplyObserver applies;

	void observeChunks(Copier.ChunkObserver observer) {
		this.chunks = observer;
	}

	void observeConfirms(Pipeline.ConfirmObserver observer) {
		this.confirms = observer;
	}

	void observeApplies(Pipeline.ApplyObserver observer) {
		this.applies = observer;
	}

	Copier.ChunkObserver chunks() {
		return this.chunks;
	}

	Pipeline.ConfirmObserver confirms() {
		return this.confirms;
	}

	Pipeline.ApplyObserver applies() {
		return this.applies;
	}

}
