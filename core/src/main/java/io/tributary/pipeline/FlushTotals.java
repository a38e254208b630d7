package io.tributary.pipeline;

import io.tributary.status.TableStatus;

/**
 * Running totals of a table's flushes by outcome, so a metrics registry can read every flush
 * without being called on the catch-up loop. Written by the control thread only, read from any
 * thread.
 */
final class FlushTotals {

	private volatile long ok;

	private volatile long failed;

	private volatile long okRows;

	private volatile long failedRows;

	private volatile long okNanos;

	private volatile long failedNanos;

	void succeeded(long rows, long nanos) {
		this.okRows += rows;
		this.okNanos += nanos;
		this.ok++;
	}

	void failed(long rows, long nanos) {
		this.failedRows += rows;
		this.failedNanos += nanos;
		this.failed++;
	}

	TableStatus.Flushes snapshot() {
		return new TableStatus.Flushes(this.ok, this.failed, this.okRows, this.failedRows, this.okNanos,
				this.failedNanos);
	}

}
