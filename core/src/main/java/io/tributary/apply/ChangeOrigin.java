package io.tributary.apply;

import io.tributary.source.Position;

/**
 * Where a flushed change was read, for sinks that publish it with the change.
 *
 * @param position the boundary to reread from to see the change again
 * @param sourceMillis when the source logged the change (epoch millis, whole seconds), or 0 when
 * unknown
 */
public record ChangeOrigin(Position position, long sourceMillis) {

}
