package io.tributary.admin;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;

import io.tributary.pipeline.Pipeline;

/**
 * Serves the admin pages. Reads only the pipeline's public status.
 */
@Controller
@RequestMapping("${cdc.admin.path:/tributary}")
public class AdminController {

	private final Pipeline pipeline;

	public AdminController(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	@GetMapping({ "", "/" })
	public String status(Model model) {
		model.addAttribute("status", this.pipeline.status());
		return "tributary/status";
	}

}
