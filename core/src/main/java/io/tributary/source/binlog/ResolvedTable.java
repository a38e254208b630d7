package io.tributary.source.binlog;

import java.util.concurrent.atomic.AtomicLongArray;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;

import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * What a rows event's table id stands for, resolved once per event on the reader thread by
 * {@link RowEventDispatch#resolve(long)}: the decoder decides from it whether to decode, and the
 * dispatch hands the decoded rows on with it, without looking the table up again.
 *
 * @param generation the dispatch's generation when this was resolved; it holds while the
 * generation stays, since every change of a subscription moves the generation
 * @param map the table map the id named
 * @param table the table the map names
 * @param layout the table's layout, or {@code null} when its rows are not wanted: nobody subscribed
 * to it, or it skips what a replay reads again
 * @param keyMask which columns (by position) are key columns; {@code null} with the layout
 * @param counts the table's row counters, or {@code null} with the layout
 * @param lasting whether this may serve later events too: false while the table skips a replay,
 * which ends with the reader's position and not with a new generation
 */
record ResolvedTable(int generation, TableMapEventData map, TableId table, TableLayout layout, boolean[] keyMask,
		AtomicLongArray counts, boolean lasting) {

	boolean wanted() {
		return this.layout != null;
	}

}
