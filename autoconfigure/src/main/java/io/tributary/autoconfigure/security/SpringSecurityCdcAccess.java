package io.tributary.autoconfigure.security;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

import io.tributary.autoconfigure.TributaryProperties;

/**
 * The access decision with Spring Security, from the user of the current thread's security
 * context. Actions need a signed-in user with role {@code cdc.admin.role}; reading needs
 * {@code cdc.admin.read-role} when it is set (the action role reads too), and nothing otherwise.
 * A role {@code X} is held as the authority {@code ROLE_X}, or as {@code X} itself.
 */
public final class SpringSecurityCdcAccess implements CdcAccess {

	private final TributaryProperties.Admin admin;

	/**
	 * Creates the decision over the admin settings.
	 * @param admin where the roles are configured; read on every decision
	 */
	public SpringSecurityCdcAccess(TributaryProperties.Admin admin) {
		this.admin = admin;
	}

	@Override
	public Decision decide(Operation operation) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		boolean signedIn = authentication != null && authentication.isAuthenticated()
				&& !(authentication instanceof AnonymousAuthenticationToken);
		String user = signedIn ? authentication.getName() : null;
		String needed = (operation == Operation.WRITE) ? this.admin.getRole() : this.admin.getReadRole();
		String property = (operation == Operation.WRITE) ? "cdc.admin.role" : "cdc.admin.read-role";
		String what = (operation == Operation.WRITE) ? "Running actions on" : "Reading";
		if (operation == Operation.READ && isBlank(needed)) {
			return Decision.allowed(user);
		}
		if (!signedIn) {
			return Decision.unauthenticated(what + " /actuator/cdc needs a signed-in user"
					+ (isBlank(needed) ? "" : " with role " + needed + " (" + property + ")"));
		}
		if (isBlank(needed) || holds(authentication, needed)
				|| (operation == Operation.READ && holds(authentication, this.admin.getRole()))) {
			return Decision.allowed(user);
		}
		return Decision.forbidden(user, what + " /actuator/cdc needs role " + needed + " (" + property
				+ "), which user '" + user + "' does not have");
	}

	private static boolean holds(Authentication authentication, String role) {
		if (isBlank(role)) {
			return false;
		}
		String bare = role.startsWith("ROLE_") ? role.substring("ROLE_".length()) : role;
		for (GrantedAuthority granted : authentication.getAuthorities()) {
			String authority = granted.getAuthority();
			if (authority != null && (authority.equals("ROLE_" + bare) || authority.equals(role))) {
				return true;
			}
		}
		return false;
	}

	private static boolean isBlank(String text) {
		return text == null || text.isBlank();
	}

}
