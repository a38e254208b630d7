/**
 * Names of tables: {@link io.tributary.name.TableId}, the schema-qualified name every other
 * package speaks of, parsed as MySQL writes names and quoted for SQL.
 *
 * <p>It sits below {@code schema} and {@code source} and depends on neither, so that both can
 * name tables without importing each other. Invariants: two ids that MySQL takes for the same
 * table are equal (case is ignored), and an id quotes to SQL that names exactly that table
 * whatever characters its parts hold.
 */
package io.tributary.name;
