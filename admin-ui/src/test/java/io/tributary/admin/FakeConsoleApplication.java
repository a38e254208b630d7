package io.tributary.admin;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableDetail;

import static io.tributary.admin.Statuses.NOW;

/**
 * The admin pages over hand-built statuses, details, access decisions and actions, under
 * {@code /ops}; the pipelines, their database and Spring Security are left out. The tests sample
 * the history themselves: the scheduler's next tick is an hour away.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = { TributaryAutoConfiguration.class, TributaryAdminAutoConfiguration.class },
		excludeName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration" })
@Import(TributaryAdminAutoConfiguration.AdminAssets.class)
class FakeConsoleApplication {

	static final String PATH = "/ops";

	static final AtomicReference<List<PipelineStatus>> STATUSES = new AtomicReference<>(List.of());

	/** Details by {@code pipeline:schema.table}. */
	static final Map<String, TableDetail> DETAILS = new ConcurrentHashMap<>();

	static final AtomicReference<CdcAccess> ACCESS = new AtomicReference<>();

	static final FakeActions ACTIONS = new FakeActions();

	static final SteppingClock CLOCK = new SteppingClock(NOW);

	/** Everyone reads and acts, nothing is refused, no table has a detail. */
	static void reset() {
		ACCESS.set((operation) -> Decision.allowed("alice"));
		ACTIONS.reset();
		DETAILS.clear();
	}

	@Bean
	StatusHistory statusHistory() {
		return new StatusHistory(STATUSES::get, CLOCK, Duration.ofHours(1), 10);
	}

	@Bean
	AdminController adminController(StatusHistory history) {
		return new AdminController(STATUSES::get, (pipeline, table) -> DETAILS.get(pipeline + ":" + table),
				(operation) -> ACCESS.get().decide(operation), ACTIONS, history, PATH + "/", CLOCK);
	}

	@Bean
	AdminActionController adminActionController() {
		return new AdminActionController(ACTIONS, PATH);
	}

}
