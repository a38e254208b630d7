package io.tributary.admin;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseBody;

import io.tributary.status.PipelineStatus;

/**
 * Serves the admin pages: the overview, the fragment of it that the page polls, and the history
 * its charts draw. Reads only the pipelines' public status, one section per pipeline.
 */
@Controller
@RequestMapping("${cdc.admin.path:/tributary}")
public class AdminController {

	private final Supplier<List<PipelineStatus>> statuses;

	private final StatusHistory history;

	private final String path;

	private final DisplayFormat format;

	/**
	 * Creates the controller.
	 * @param statuses reads every pipeline's status
	 * @param history the recent statuses the charts draw
	 * @param path the path the pages are served under, {@code cdc.admin.path}
	 */
	public AdminController(Supplier<List<PipelineStatus>> statuses, StatusHistory history, String path) {
		this(statuses, history, path, Clock.systemUTC());
	}

	AdminController(Supplier<List<PipelineStatus>> statuses, StatusHistory history, String path, Clock clock) {
		this.statuses = statuses;
		this.history = history;
		this.path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
		this.format = new DisplayFormat(clock);
	}

	@GetMapping({ "", "/" })
	public String status(Model model) {
		overviewModel(model);
		return "tributary/status";
	}

	@GetMapping("/fragments/overview")
	public String overview(Model model) {
		overviewModel(model);
		return "tributary/status :: overview";
	}

	@GetMapping(path = "/history.json", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	public StatusHistory.Snapshot history() {
		return this.history.snapshot();
	}

	private void overviewModel(Model model) {
		model.addAttribute("pipelines", this.statuses.get());
		model.addAttribute("history", this.history);
		model.addAttribute("fmt", this.format);
		model.addAttribute("adminPath", this.path);
	}

}
