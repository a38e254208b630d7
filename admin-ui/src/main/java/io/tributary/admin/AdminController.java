package io.tributary.admin;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

import io.tributary.autoconfigure.TributaryPipelines;

/**
 * Serves the admin pages. Reads only the pipelines' public status, one section per pipeline.
 */
@Controller
@RequestMapping("${cdc.admin.path:/tributary}")
public class AdminController {

	private final TributaryPipelines pipelines;

	public AdminController(TributaryPipelines pipelines) {
		this.pipelines = pipelines;
	}

	@GetMapping({ "", "/" })
	public String status(Model model) {
		model.addAttribute("pipelines", this.pipelines.status());
		return "tributary/status";
	}

}
