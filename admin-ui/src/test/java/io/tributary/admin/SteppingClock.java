package io.tributary.admin;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test tells it, two seconds (one sampling period) at a time. */
final class SteppingClock extends Clock {

	private volatile long millis;

	SteppingClock(Instant start) {
		this.millis = start.toEpochMilli();
	}

	void step() {
		this.millis += 2_000;
	}

	@Override
	public long millis() {
		return this.millis;
	}

	@Override
	public Instant instant() {
		return Instant.ofEpochMilli(this.millis);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

}
