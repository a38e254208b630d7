package io.tributary.bench;

/**
 * One line of a run's results: a figure a scenario measured, or a figure set against a reference
 * measured in the same run, with the ratio, the target and whether it was met.
 *
 * @param scenario the scenario, for example {@code ingestion}
 * @param server {@code mariadb} or {@code mysql}
 * @param shape what was measured within the scenario, for example {@code 100 changes/transaction}
 * @param measure who or what was measured, for example {@code Tributary, warm}
 * @param value the figure
 * @param unit its unit, for example {@code changes/s}
 * @param reference what the figure is compared with, or empty for a plain measurement
 * @param referenceValue the reference's figure in the same run, or NaN
 * @param target the ratio the issue asks for, or NaN when there is none
 * @param atMost whether the target is the most the ratio may be (times, memory, latency) rather than
 * the least (rates)
 * @param note how the figure was obtained, or why it is missing
 * @param referenceUnit the reference's unit where it is not the figure's, or empty
 */
public record ResultRow(String scenario, String server, String shape, String measure, double value, String unit,
		String reference, double referenceValue, double target, boolean atMost, String note, String referenceUnit) {

	/** A row whose reference is in the figure's unit. */
	public ResultRow(String scenario, String server, String shape, String measure, double value, String unit,
			String reference, double referenceValue, double target, boolean atMost, String note) {
		this(scenario, server, shape, measure, value, unit, reference, referenceValue, target, atMost, note, "");
	}

	/** A plain measurement, without a reference. */
	public static ResultRow measured(String scenario, String server, String shape, String measure, double value,
			String unit, String note) {
		return new ResultRow(scenario, server, shape, measure, value, unit, "", Double.NaN, Double.NaN, false, note);
	}

	/** A figure against a reference of the same run that it must reach at least {@code target} times. */
	public static ResultRow compared(String scenario, String server, String shape, String measure, double value,
			String unit, String reference, double referenceValue, double target, String note) {
		return new ResultRow(scenario, server, shape, measure, value, unit, reference, referenceValue, target, false,
				note);
	}

	/**
	 * A figure against a reference it may reach at most {@code target} times: a time against a
	 * physical limit, a latency or a heap against a budget.
	 */
	public static ResultRow bounded(String scenario, String server, String shape, String measure, double value,
			String unit, String reference, double referenceValue, double target, String note) {
		return new ResultRow(scenario, server, shape, measure, value, unit, reference, referenceValue, target, true,
				note);
	}

	/** A scenario that did not produce its figures, with the reason. */
	public static ResultRow failed(String scenario, String server, String reason) {
		return new ResultRow(scenario, server, "-", "FAILED", Double.NaN, "", "", Double.NaN, Double.NaN, false,
				reason);
	}

	/**
	 * Returns this comparison with its reference in another unit, for example records/s against
	 * changes/s.
	 */
	public ResultRow withReferenceUnit(String other) {
		return new ResultRow(this.scenario, this.server, this.shape, this.measure, this.value, this.unit,
				this.reference, this.referenceValue, this.target, this.atMost, this.note, other);
	}

	/** The reference's unit: its own where given, otherwise the figure's. */
	public String referenceUnitText() {
		return (this.referenceUnit == null || this.referenceUnit.isEmpty()) ? this.unit : this.referenceUnit;
	}

	/** Whether this row compares with a reference. */
	public boolean isComparison() {
		return !this.reference.isEmpty();
	}

	/** Whether this row records a failure. */
	public boolean isFailure() {
		return "FAILED".equals(this.measure);
	}

	/** The target as a condition on the ratio, for example {@code >= 3.00x}, or {@code -}. */
	public String targetText() {
		return Double.isNaN(this.target) ? "-" : String.format("%s %.2fx", this.atMost ? "<=" : ">=", this.target);
	}

	/** The figure over the reference's, or NaN. */
	public double ratio() {
		return isComparison() ? this.value / this.referenceValue : Double.NaN;
	}

	/** {@code hit}, {@code miss}, or empty where there is no target or no ratio. */
	public String verdict() {
		if (Double.isNaN(this.target) || Double.isNaN(ratio()) || Double.isInfinite(ratio())) {
			return "";
		}
		boolean met = this.atMost ? ratio() <= this.target : ratio() >= this.target;
		return met ? "hit" : "miss";
	}

}
