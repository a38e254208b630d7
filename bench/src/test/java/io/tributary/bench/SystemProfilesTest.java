package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SystemProfilesTest {

	/** Four samples as {@code perf script -F comm,pid,tid,ip,sym} prints them. */
	private static final String SCRIPT = """
			mariadbd 200/210
			\t          f03d14 buf_page_get_low
			\t          e8af8a trx_purge_read_undo_rec
			\t          891f5 start_thread

			mariadbd 200/211
			\t          ebffba rec_get_offsets_func
			\t          841661 do_command
			\t          891f5 start_thread

			C2 CompilerThre 100/101
			\t          7f00 [unknown]

			swapper     0/0
			\t          ffff default_idle

			""";

	@Test
	void countsEachProcessAndWhatItsServerThreadsDid() throws Exception {
		SystemProfiles.Samples samples = new SystemProfiles.Samples();
		samples.read(new BufferedReader(new StringReader(SCRIPT)));

		List<String> lines = samples.describe(100, Map.of(200L, "mariadbd on port 3306"));

		assertThat(lines.get(0)).startsWith("4 samples");
		assertThat(lines).contains("   50.0%  mariadbd on port 3306 (pid 200)", "   25.0%  this JVM (pid 100)",
				"   25.0%  idle", "   25.0%  C2 CompilerThre");
		assertThat(lines).anyMatch((line) -> line.startsWith("mariadbd on port 3306 (pid 200): 50.0% purging old row "
				+ "versions, 50.0% running client statements, 0.0% applying replicated events, 0.0% flushing pages"));
		assertThat(lines).contains("   50.0%  buf_page_get_low", "   50.0%  rec_get_offsets_func");
	}

	@Test
	void aServerWhoseThreadsHaveNamesOfTheirOwnIsKnownByItsProcessId() throws Exception {
		SystemProfiles.Samples samples = new SystemProfiles.Samples();
		samples.read(new BufferedReader(new StringReader("""
				ib_srv_purge 300/301
				\t          1 row_purge_step

				connection 300/302
				\t          2 do_command

				""")));

		assertThat(samples.describe(100, Map.of(300L, "mysqld on port 3307")))
			.anyMatch((line) -> line.startsWith("mysqld on port 3307 (pid 300): 50.0% purging old row versions, 50.0% "
					+ "running client statements"));
	}

	@Test
	void threadsOfOnePoolCountTogether() throws Exception {
		SystemProfiles.Samples samples = new SystemProfiles.Samples();
		samples.read(new BufferedReader(new StringReader("""
				GC Thread#0 100/102
				\t          1 a

				GC Thread#1 100/103
				\t          1 a

				""")));

		assertThat(samples.describe(100, Map.of())).contains("  100.0%  GC Thread");
	}

}
