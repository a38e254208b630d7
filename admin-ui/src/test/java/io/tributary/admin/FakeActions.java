package io.tributary.admin;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.tributary.autoconfigure.actions.RequestRefused;

/**
 * Actions that only note what they were asked: whether they are offered, and what they refuse,
 * is up to the test.
 */
final class FakeActions implements ConsoleActions {

	/** What was run: {@code pause main:shop.orders}, or {@code pause *} for every table. */
	final List<String> calls = new CopyOnWriteArrayList<>();

	volatile boolean available = true;

	/** Thrown before anything runs, as for a user who may not act or actions that are disabled. */
	volatile RequestRefused checkRefusal;

	/** Thrown by the action itself, as for a table whose state refuses it. */
	volatile RequestRefused pipelineRefusal;

	void reset() {
		this.calls.clear();
		this.available = true;
		this.checkRefusal = null;
		this.pipelineRefusal = null;
	}

	@Override
	public boolean available() {
		return this.available;
	}

	@Override
	public void requireAllowed(String action) {
		if (this.checkRefusal != null) {
			throw this.checkRefusal;
		}
	}

	@Override
	public Outcome run(String action, String pipeline, String table) {
		requireAllowed(action);
		if (this.pipelineRefusal != null) {
			throw this.pipelineRefusal;
		}
		this.calls.add(action + " " + pipeline + ":" + table);
		return new Outcome(true, "Ran " + action + " on " + pipeline + ":" + table + ".");
	}

	@Override
	public Outcome addTable(String source, String target) {
		requireAllowed("add");
		if (this.pipelineRefusal != null) {
			throw this.pipelineRefusal;
		}
		this.calls.add("add " + source + " -> " + target);
		return new Outcome(true, "Added " + source + ".");
	}

	@Override
	public Outcome runOnAllTables(String action) {
		requireAllowed(action);
		this.calls.add(action + " *");
		return new Outcome(this.pipelineRefusal == null, (this.pipelineRefusal == null)
				? "Ran " + action + " on every table." : "Refused everywhere: " + this.pipelineRefusal.getMessage());
	}

}
