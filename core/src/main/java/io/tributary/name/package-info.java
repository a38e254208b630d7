/**
 * Names of tables: {@link io.tributary.name.TableId}, the schema-qualified name every other
 * package speaks of, parsed as MySQL writes names and quoted for SQL; and
 * {@link io.tributary.name.Destination}, where a table's changes go, named the same way
 * everywhere.
 *
 * <p>It sits below {@code schema} and {@code source} and depends on neither, so that both can
 * name tables without importing each other. Invariants: two ids that MySQL takes for the same
 * table are equal (case is ignored), and an id quotes to SQL that names exactly that table
 * whatever characters its parts hold; a destination's text form reads back as the same
 * destination, and a table's never as another kind's.
 */
package io.tributary.name;
