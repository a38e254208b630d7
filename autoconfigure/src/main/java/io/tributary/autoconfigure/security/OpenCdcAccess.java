package io.tributary.autoconfigure.security;

/**
 * The access decision without Spring Security: every request is allowed, and who may reach the
 * endpoint at all is up to the application (exposure, network, a servlet filter). Actions still
 * need {@code cdc.admin.actions-enabled=true}.
 */
public final class OpenCdcAccess implements CdcAccess {

	@Override
	public Decision decide(Operation operation) {
		return Decision.allowed(null);
	}

}
