package io.tributary.subscription;

/**
 * Counters of one subscription.
 *
 * @param bufferedKeys changes currently held: keys of the map plus queued changes
 * @param bufferedBytes estimated heap bytes currently buffered
 * @param keysAdded changes added since start
 * @param droppedAboveHighWatermark changes dropped because the copier will read them
 * @param deferredInFlight times a change was kept back because its chunk was in flight
 * @param parks times an add waited for room, under the soft limit or the pipeline's budget
 * @param parkedMillis total time adds waited
 * @param softLimitBytes the soft limit over buffered and in-flight bytes, negative when there is none
 * @param inFlightBytes estimated heap bytes of drained changes whose apply has not ended
 * @param budgetParks of {@code parks}, those at the pipeline's budget rather than the soft limit
 */
public record SubscriptionCounters(long bufferedKeys, long bufferedBytes, long keysAdded, long droppedAboveHighWatermark,
		long deferredInFlight, long parks, long parkedMillis, long softLimitBytes, long inFlightBytes,
		long budgetParks) {

}
