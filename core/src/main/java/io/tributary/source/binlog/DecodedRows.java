package io.tributary.source.binlog;

import java.io.Serializable;
import java.util.List;

import com.github.shyiko.mysql.binlog.event.EventData;

/**
 * The payload of one WRITE/UPDATE/DELETE rows event as {@link RowsEventDecoder} leaves it.
 *
 * @param tableId the server's table id, resolved through the preceding TABLE_MAP event
 * @param resolved what the table id stood for when the event was read, or {@code null} when no
 * table map named it
 * @param decoded whether the row images were decoded; false for tables nobody subscribed to
 * @param columnCount number of columns the event's images carry
 * @param before before-images (updates and deletes), empty otherwise
 * @param after after-images (inserts and updates), empty otherwise
 * @param error why the images could not be decoded, or {@code null}
 */
record DecodedRows(long tableId, ResolvedTable resolved, boolean decoded, int columnCount, List<Serializable[]> before,
		List<Serializable[]> after, String error) implements EventData {

}
