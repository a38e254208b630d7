package io.tributary.admin;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.util.UriComponentsBuilder;

import io.tributary.autoconfigure.actions.RequestRefused;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.autoconfigure.security.CdcAccess.Operation;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;

/**
 * Serves the admin pages: the overview, each table's page, the fragments of both that the pages
 * poll, and the history their charts draw. Every page needs a user who may read, as
 * {@link CdcAccess} decides; a refusal answers 401 or 403 with the reason.
 */
@Controller
@RequestMapping("${cdc.admin.path:/tributary}")
public class AdminController {

	private final Supplier<List<PipelineStatus>> statuses;

	private final TableDetails details;

	private final CdcAccess access;

	private final ConsoleActions actions;

	private final StatusHistory history;

	private final String path;

	private final DisplayFormat format;

	/**
	 * Creates the controller.
	 * @param statuses reads every pipeline's status
	 * @param details finds one table's detail
	 * @param access who may read the pages
	 * @param actions whether the current user may run actions, to show the buttons
	 * @param history the recent statuses the charts draw
	 * @param path the path the pages are served under, {@code cdc.admin.path}
	 */
	public AdminController(Supplier<List<PipelineStatus>> statuses, TableDetails details, CdcAccess access,
			ConsoleActions actions, StatusHistory history, String path) {
		this(statuses, details, access, actions, history, path, Clock.systemUTC());
	}

	AdminController(Supplier<List<PipelineStatus>> statuses, TableDetails details, CdcAccess access,
			ConsoleActions actions, StatusHistory history, String path, Clock clock) {
		this.statuses = statuses;
		this.details = details;
		this.access = access;
		this.actions = actions;
		this.history = history;
		this.path = trimmed(path);
		this.format = new DisplayFormat(clock);
	}

	@GetMapping({ "", "/" })
	public String status(@RequestParam(name = "q", required = false) String filter,
			@RequestParam(name = "pipeline", required = false) String pipeline,
			@RequestParam(name = "page", defaultValue = "1") int page, Model model) {
		overviewModel(filter, pipeline, page, model);
		model.addAttribute("actionsAvailable", this.actions.available());
		model.addAttribute("actionChoices", ActionChoice.ALL_TABLES);
		return "tributary/status";
	}

	@GetMapping("/fragments/overview")
	public String overview(@RequestParam(name = "q", required = false) String filter,
			@RequestParam(name = "pipeline", required = false) String pipeline,
			@RequestParam(name = "page", defaultValue = "1") int page, Model model) {
		overviewModel(filter, pipeline, page, model);
		return "tributary/status :: overview";
	}

	@GetMapping(path = "/history.json", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	public StatusHistory.Snapshot history() {
		requireRead();
		return this.history.snapshot(StatusHistory.OVERVIEW_TABLES);
	}

	@GetMapping("/pipelines/{pipeline}/tables/{table}")
	public String table(@PathVariable String pipeline, @PathVariable String table, Model model) {
		tableModel(pipeline, table, model);
		model.addAttribute("actionsAvailable", this.actions.available());
		model.addAttribute("actionChoices", ActionChoice.ONE_TABLE);
		model.addAttribute("polled", false);
		return "tributary/table";
	}

	@GetMapping("/pipelines/{pipeline}/tables/{table}/fragment")
	public String tableFragment(@PathVariable String pipeline, @PathVariable String table, Model model) {
		tableModel(pipeline, table, model);
		model.addAttribute("polled", true);
		return "tributary/table-poll";
	}

	@GetMapping(path = "/pipelines/{pipeline}/tables/{table}/history.json", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	public StatusHistory.TableHistory tableHistory(@PathVariable String pipeline, @PathVariable String table) {
		requireRead();
		return this.history.tableHistory(pipeline, table);
	}

	@ExceptionHandler(RequestRefused.class)
	public ModelAndView refused(RequestRefused refused) {
		return refusalPage(refused, this.path);
	}

	/**
	 * Models the overview: each pipeline's counts and one page of its tables that the filter keeps;
	 * the page asked for applies to the named pipeline, or to every pipeline when none is named.
	 */
	private void overviewModel(String filterText, String pagedPipeline, int page, Model model) {
		requireRead();
		TableFilter filter = TableFilter.of(filterText);
		List<PipelineStatus> pipelines = this.statuses.get();
		List<PipelineOverview> overviews = new ArrayList<>(pipelines.size());
		for (PipelineStatus status : pipelines) {
			boolean paged = pagedPipeline == null || pagedPipeline.equals(status.name());
			overviews.add(PipelineOverview.of(status, overviews.size(), filter, paged ? page : 1, this.format));
		}
		Links links = new Links(this.path, filter.text());
		model.addAttribute("pipelines", pipelines);
		model.addAttribute("overviews", overviews);
		model.addAttribute("filter", filter.text());
		model.addAttribute("pollPath", links.poll(pagedPipeline, page));
		model.addAttribute("history", this.history);
		model.addAttribute("fmt", this.format);
		model.addAttribute("adminPath", this.path);
		model.addAttribute("links", links);
	}

	private void tableModel(String pipeline, String table, Model model) {
		requireRead();
		TableDetail detail = this.details.find(pipeline, table);
		if (detail == null) {
			throw new RequestRefused(RequestRefused.NOT_FOUND, "Pipeline " + pipeline + " does not replicate table "
					+ table + "; the overview lists every pipeline's tables");
		}
		List<TableEvent> newestFirst = new ArrayList<>(detail.timeline());
		Collections.reverse(newestFirst);
		model.addAttribute("pipeline", pipeline);
		model.addAttribute("detail", detail);
		model.addAttribute("table", detail.status());
		model.addAttribute("timeline", newestFirst);
		model.addAttribute("timelineLength", TableDetail.TIMELINE_LENGTH);
		model.addAttribute("appliedPerSecond", this.history.latestChangesAppliedPerSecond(pipeline, table));
		model.addAttribute("fmt", this.format);
		model.addAttribute("adminPath", this.path);
		model.addAttribute("tablePath", tablePath(this.path, pipeline, table));
	}

	private Decision requireRead() {
		Decision decision = this.access.decide(Operation.READ);
		return switch (decision.verdict()) {
			case ALLOWED -> decision;
			case UNAUTHENTICATED -> throw new RequestRefused(RequestRefused.UNAUTHORIZED, decision.reason());
			case FORBIDDEN -> throw new RequestRefused(RequestRefused.FORBIDDEN, decision.reason());
		};
	}

	/** The path of a table's page, each name encoded as one path segment. */
	static String tablePath(String adminPath, String pipeline, String table) {
		return UriComponentsBuilder.fromPath(adminPath)
			.pathSegment("pipelines", pipeline, "tables", table)
			.encode()
			.build()
			.toUriString();
	}

	/**
	 * Builds the links of the overview's pages. A link template would leave a slash in a table's
	 * name unencoded, so that the name no longer reads as one path segment.
	 *
	 * @param adminPath the path the pages are served under
	 * @param filter the overview's filter, kept by the links to its pages; {@code null} for none
	 */
	public record Links(String adminPath, String filter) {

		/**
		 * Creates the links of an overview without a filter.
		 * @param adminPath the path the pages are served under
		 */
		public Links(String adminPath) {
			this(adminPath, null);
		}

		/**
		 * Returns the path of a table's page.
		 * @param pipeline the pipeline's name
		 * @param table the table's name, as its status gives it
		 * @return the path, each name encoded as one path segment
		 */
		public String table(String pipeline, String table) {
			return tablePath(this.adminPath, pipeline, table);
		}

		/**
		 * Returns the path of the overview with another filter.
		 * @param filter the filter, as typed in its box
		 * @return the path, the filter in the {@code q} query parameter
		 */
		public String filtered(String filter) {
			return overview("", filter, null, 1);
		}

		/**
		 * Returns the path of one page of a pipeline's tables, with this filter.
		 * @param pipeline the pipeline's name
		 * @param page the page, from 1
		 * @return the path
		 */
		public String page(String pipeline, int page) {
			return overview("", this.filter, pipeline, page);
		}

		/** The fragment the overview polls, with the same filter and page as the overview. */
		String poll(String pipeline, int page) {
			return overview("/fragments/overview", this.filter, pipeline, page);
		}

		private String overview(String suffix, String filter, String pipeline, int page) {
			String base = this.adminPath + suffix;
			UriComponentsBuilder uri = UriComponentsBuilder.fromPath(base.isEmpty() ? "/" : base);
			if (filter != null) {
				uri.queryParam("q", filter);
			}
			if (pipeline != null) {
				uri.queryParam("pipeline", pipeline);
			}
			if (page > 1) {
				uri.queryParam("page", page);
			}
			return uri.encode().build().toUriString();
		}

	}

	/** The page that says why a request was refused, answered with the refusal's status. */
	static ModelAndView refusalPage(RequestRefused refused, String adminPath) {
		ModelAndView page = new ModelAndView("tributary/refused");
		page.setStatus(HttpStatusCode.valueOf(refused.status()));
		page.addObject("status", refused.status());
		page.addObject("message", refused.getMessage());
		page.addObject("adminPath", adminPath);
		return page;
	}

	static String trimmed(String path) {
		return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
	}

}
