package io.tributary.bench;

import java.io.IOException;

/**
 * Polls an application's {@code /actuator/cdc} from its JVM's start until it lists the expected
 * tables, every one {@code STREAMING}.
 *
 * @param readySeconds from the JVM's start until the endpoint first answered
 * @param streamingSeconds from the JVM's start until every table streamed
 * @param polls answers read
 */
record StreamingWait(double readySeconds, double streamingSeconds, int polls) {

	private static final long PAUSE_MILLIS = 250;

	/**
	 * Waits for every table to stream.
	 * @param tables how many tables the pipeline must list
	 * @param timeoutMinutes longest wait from the JVM's start
	 */
	static StreamingWait await(ApplicationJvm app, int tables, int timeoutMinutes) throws Exception {
		TimedGets http = new TimedGets(app.baseUrl());
		double ready = Double.NaN;
		int polls = 0;
		CdcPhases last = null;
		while (app.seconds() < timeoutMinutes * 60.0) {
			app.requireAlive("every table to stream");
			byte[] body;
			try {
				body = http.get("/actuator/cdc");
			}
			catch (IOException ex) {
				// Not listening yet, or the endpoint not mapped yet.
				Thread.sleep(PAUSE_MILLIS);
				continue;
			}
			double now = app.seconds();
			if (Double.isNaN(ready)) {
				ready = now;
			}
			polls++;
			last = CdcPhases.of(body);
			if (last.allStreaming(tables)) {
				return new StreamingWait(ready, now, polls);
			}
			Thread.sleep(PAUSE_MILLIS);
		}
		throw new IllegalStateException("Not every one of the " + tables + " tables streamed within " + timeoutMinutes
				+ " minutes (bench.childTimeoutMinutes); phases last seen: " + last + "; the application's log ends with:\n"
				+ app.tail());
	}

}
