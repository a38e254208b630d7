package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.copy.CopySizing;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;
import io.tributary.status.TableStatus;

/**
 * A pipeline in a process of its own, for tests that kill it: replicates one table and prints its
 * copy progress until the process ends.
 *
 * <p>Arguments: JDBC URL, user, password, source host, source port, replica server id, source
 * schema, target schema, table.
 */
public final class CopyProcess {

	private CopyProcess() {
	}

	/** Settings shared by the killed process and the run that continues its copy. */
	static PipelineSettings settings(SourceSettings source, String src, String dst, String table) {
		return PipelineSettings
			.of(source, List.of(new TableMapping(new TableId(src, table), new TableId(dst, table))),
					new TableId(dst, "tributary_checkpoint"))
			.withCopy(new CopySizing(1, 1000, 1000, 1000, Duration.ofMillis(500)))
			.withFlushInterval(Duration.ofMillis(20))
			.withCheckpointInterval(Duration.ofMillis(20));
	}

	public static void main(String[] args) throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(args[0]);
		config.setUsername(args[1]);
		config.setPassword(args[2]);
		config.setMaximumPoolSize(8);
		HikariDataSource pool = new HikariDataSource(config);
		SourceSettings source = new SourceSettings(args[3], Integer.parseInt(args[4]), args[1], args[2],
				Long.parseLong(args[5]), Duration.ofSeconds(10), Duration.ofSeconds(1));
		Pipeline pipeline = new Pipeline(settings(source, args[6], args[7], args[8]), pool, pool);
		pipeline.start();
		while (true) {
			TableStatus table = pipeline.status().tables().get(0);
			System.out.println("progress " + table.phase() + " " + table.rowsCopied() + " " + table.chunksCopied());
			System.out.flush();
			Thread.sleep(200);
		}
	}

}
