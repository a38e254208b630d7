package io.tributary.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.support.RequestContextUtils;

import io.tributary.autoconfigure.actions.RequestRefused;

/**
 * Runs the actions the pages' forms post, one table's or every table's, and sends the browser back
 * to the page (303 See Other) with a notice of what was done or why it was refused (post, redirect,
 * get); the notice waits in the session for that one request. A resnapshot
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
	public ModelAndView tableAction(@PathVariable String pipeline, @PathVariable String table,
			@PathVariable String action, @RequestParam(defaultValue = "false") boolean confirm,
			HttpServletRequest request, HttpServletResponse response) {
		String back = AdminController.tablePath(this.path, pipeline, table);
		if (ActionChoice.needsConfirmation(action) && !confirm) {
			return confirmation(action, "table " + table + " of pipeline " + pipeline, back + "/actions/" + action,
					back);
		}
		Notice notice;
		try {
			notice = Notice.of(this.actions.run(action, pipeline, table));
		}
		catch (RequestRefused refused) {
			notice = Notice.of(answeredOnItsOwnPage(refused));
		}
		return seeOther(back, notice, request, response);
	}

	@PostMapping("/actions/{action}")
	public ModelAndView allTablesAction(@PathVariable String action,
			@RequestParam(defaultValue = "false") boolean confirm, HttpServletRequest request,
			HttpServletResponse response) {
		String back = this.path.isEmpty() ? "/" : this.path;
		if (ActionChoice.needsConfirmation(action) && !confirm) {
			return confirmation(action, "every table of every pipeline", this.path + "/actions/" + action, back);
		}
		Notice notice;
		try {
			notice = Notice.of(this.actions.runOnAllTables(action));
		}
		catch (RequestRefused refused) {
			notice = Notice.of(answeredOnItsOwnPage(refused));
		}
		return seeOther(back, notice, request, response);
	}

	@PostMapping("/tables")
	public ModelAndView addTable(@RequestParam String source, @RequestParam(required = false) String target,
			HttpServletRequest request, HttpServletResponse response) {
		String back = this.path.isEmpty() ? "/" : this.path;
		Notice notice;
		try {
			notice = Notice.of(this.actions.addTable(source, target));
		}
		catch (RequestRefused refused) {
			notice = Notice.of(answeredOnItsOwnPage(refused));
		}
		return seeOther(back, notice, request, response);
	}

	@ExceptionHandler(RequestRefused.class)
	public ModelAndView refused(RequestRefused refused) {
		return AdminController.refusalPage(refused, this.path);
	}

	private ModelAndView confirmation(String action, String subject, String postPath, String back) {
		// Only a user who may run the action is asked to confirm it.
		this.actions.requireAllowed(action);
		ModelAndView page = new ModelAndView("tributary/confirm");
		page.addObject("action", action);
		page.addObject("subject", subject);
		page.addObject("postPath", postPath);
		page.addObject("backPath", back);
		page.addObject("adminPath", this.path);
		return page;
	}

	/**
	 * Sends the browser to a page with the notice waiting for it there. The location is written as
	 * it is: a redirect through the container would add the session id to it for a new session.
	 */
	private static ModelAndView seeOther(String path, Notice notice, HttpServletRequest request,
			HttpServletResponse response) {
		String location = request.getContextPath() + path;
		RequestContextUtils.getOutputFlashMap(request).put(NOTICE, notice);
		RequestContextUtils.saveOutputFlashMap(location, request, response);
		View redirect = (model, viewRequest, viewResponse) -> {
			viewResponse.setStatus(HttpStatus.SEE_OTHER.value());
			viewResponse.setHeader(HttpHeaders.LOCATION, location);
		};
		return new ModelAndView(redirect);
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
