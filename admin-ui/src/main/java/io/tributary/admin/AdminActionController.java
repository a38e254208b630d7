package io.tributary.admin;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.tributary.autoconfigure.actions.RequestRefused;

/**
 * Runs the actions the pages' forms post, one table's or every table's, and redirects back to the
 * page with a notice of what was done or why it was refused (post, redirect, get). A resnapshot
 * first answers with a page asking to confirm it, whose form posts again with {@code confirm=true}.
 * A user who may not act, or actions that are disabled, get 401 or 403 and the reason; so do an
 * unknown action and an unknown table (400, 404).
 */
@Controller
@RequestMapping("${cdc.admin.path:/tributary}")
public class AdminActionController {

	/** Model attribute of the notice shown after the redirect. */
	static final String NOTICE = "notice";

	private final ConsoleActions actions;

	private final String path;

	/**
	 * Creates the controller.
	 * @param actions runs the actions for the current user
	 * @param path the path the pages are served under, {@code cdc.admin.path}
	 */
	public AdminActionController(ConsoleActions actions, String path) {
		this.actions = actions;
		this.path = AdminController.trimmed(path);
	}

	@PostMapping("/pipelines/{pipeline}/tables/{table}/actions/{action}")
	public String tableAction(@PathVariable String pipeline, @PathVariable String table, @PathVariable String action,
			@RequestParam(defaultValue = "false") boolean confirm, Model model, RedirectAttributes redirect) {
		String back = AdminController.tablePath(this.path, pipeline, table);
		if (ActionChoice.needsConfirmation(action) && !confirm) {
			return confirmation(model, action, "table " + table + " of pipeline " + pipeline,
					back + "/actions/" + action, back);
		}
		Notice notice;
		try {
			notice = Notice.of(this.actions.run(action, pipeline, table));
		}
		catch (RequestRefused refused) {
			notice = Notice.of(answeredOnItsOwnPage(refused));
		}
		redirect.addFlashAttribute(NOTICE, notice);
		return "redirect:" + back;
	}

	@PostMapping("/actions/{action}")
	public String allTablesAction(@PathVariable String action, @RequestParam(defaultValue = "false") boolean confirm,
			Model model, RedirectAttributes redirect) {
		String back = this.path.isEmpty() ? "/" : this.path;
		if (ActionChoice.needsConfirmation(action) && !confirm) {
			return confirmation(model, action, "every table of every pipeline", this.path + "/actions/" + action, back);
		}
		Notice notice;
		try {
			notice = Notice.of(this.actions.runOnAllTables(action));
		}
		catch (RequestRefused refused) {
			notice = Notice.of(answeredOnItsOwnPage(refused));
		}
		redirect.addFlashAttribute(NOTICE, notice);
		return "redirect:" + back;
	}

	@ExceptionHandler(RequestRefused.class)
	public ModelAndView refused(RequestRefused refused) {
		return AdminController.refusalPage(refused, this.path);
	}

	private String confirmation(Model model, String action, String subject, String postPath, String back) {
		// Only a user who may run the action is asked to confirm it.
		this.actions.requireAllowed(action);
		model.addAttribute("action", action);
		model.addAttribute("subject", subject);
		model.addAttribute("postPath", postPath);
		model.addAttribute("backPath", back);
		model.addAttribute("adminPath", this.path);
		return "tributary/confirm";
	}

	/**
	 * Rethrows a refusal that the user's rights, the switch or a wrong address caused, to be answered
	 * with its status; returns one the pipeline's state caused, to be shown as a notice.
	 */
	private static RequestRefused answeredOnItsOwnPage(RequestRefused refused) {
		int status = refused.status();
		if (status == RequestRefused.BAD_REQUEST || status == RequestRefused.UNAUTHORIZED
				|| status == RequestRefused.FORBIDDEN || status == RequestRefused.NOT_FOUND) {
			throw refused;
		}
		return refused;
	}

	/**
	 * What the page shows after an action.
	 *
	 * @param done whether the action was done, on the table or on at least one table
	 * @param message what was done, or why it was refused
	 */
	public record Notice(boolean done, String message) {

		static Notice of(ConsoleActions.Outcome outcome) {
			return new Notice(outcome.done(), outcome.message());
		}

		static Notice of(RequestRefused refused) {
			return new Notice(false, refused.getMessage());
		}

	}

}
