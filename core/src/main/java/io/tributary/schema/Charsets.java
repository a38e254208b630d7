package io.tributary.schema;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

import io.tributary.name.TableId;

/**
 * Maps MySQL character set names to Java charsets, for decoding character columns of binlog row
 * images (which carry raw bytes).
 */
final class Charsets {

	private static final Map<String, String> JAVA_NAMES = Map.ofEntries(Map.entry("utf8mb4", "UTF-8"),
			Map.entry("utf8mb3", "UTF-8"), Map.entry("utf8", "UTF-8"), Map.entry("latin1", "windows-1252"),
			Map.entry("ascii", "US-ASCII"), Map.entry("ucs2", "UTF-16BE"), Map.entry("utf16", "UTF-16BE"),
			Map.entry("utf16le", "UTF-16LE"), Map.entry("utf32", "UTF-32BE"), Map.entry("latin2", "ISO-8859-2"),
			Map.entry("cp1250", "windows-1250"), Map.entry("cp1251", "windows-1251"),
			Map.entry("cp1256", "windows-1256"), Map.entry("cp1257", "windows-1257"), Map.entry("greek", "ISO-8859-7"),
			Map.entry("hebrew", "ISO-8859-8"), Map.entry("latin5", "ISO-8859-9"), Map.entry("latin7", "ISO-8859-13"),
			Map.entry("koi8r", "KOI8-R"), Map.entry("koi8u", "KOI8-U"), Map.entry("sjis", "Shift_JIS"),
			Map.entry("cp932", "windows-31j"), Map.entry("ujis", "EUC-JP"), Map.entry("eucjpms", "EUC-JP"),
			Map.entry("gbk", "GBK"), Map.entry("gb2312", "GB2312"), Map.entry("gb18030", "GB18030"),
			Map.entry("big5", "Big5"), Map.entry("euckr", "EUC-KR"), Map.entry("tis620", "TIS-620"),
			Map.entry("cp850", "IBM850"), Map.entry("cp852", "IBM852"), Map.entry("cp866", "IBM866"));

	private Charsets() {
	}

	static Charset forMysql(String mysqlName, TableId table, String column) {
		if (mysqlName == null || mysqlName.equalsIgnoreCase("binary")) {
			return StandardCharsets.ISO_8859_1;
		}
		String javaName = JAVA_NAMES.get(mysqlName.toLowerCase(Locale.ROOT));
		try {
			return Charset.forName((javaName != null) ? javaName : mysqlName);
		}
		catch (RuntimeException ex) {
			throw new SchemaException("Column " + column + " of " + table + " uses character set " + mysqlName
					+ ", which this JVM cannot decode; convert the column to utf8mb4");
		}
	}

}
