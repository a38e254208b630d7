package io.tributary.ha;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A pool whose users can be frozen, the way a stalled process (a long GC pause, {@code SIGSTOP})
 * looks from the server: while {@link #stall()} is on, every statement and validity check waits
 * before it reaches the server, and the connections stay open. {@link #resume()} lets them go on.
 * A statement waits at most five minutes.
 */
public final class StallingDataSource implements DataSource {

	private final DataSource pool;

	private final Object gate = new Object();

	private boolean stalled;

	private int waiting;

	public StallingDataSource(DataSource pool) {
		this.pool = pool;
	}

	/** Makes every statement from now on wait until {@link #resume()}. */
	public void stall() {
		synchronized (this.gate) {
			this.stalled = true;
		}
	}

	/** Lets waiting and later statements through. */
	public void resume() {
		synchronized (this.gate) {
			this.stalled = false;
			this.gate.notifyAll();
		}
	}

	/** Returns how many statements wait at the gate now. */
	public int waiting() {
		synchronized (this.gate) {
			return this.waiting;
		}
	}

	private void pass() {
		synchronized (this.gate) {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			this.waiting++;
			try {
				while (this.stalled && deadline - System.nanoTime() > 0) {
					this.gate.wait(100);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				this.waiting--;
			}
		}
	}

	@Override
	public Connection getConnection() throws SQLException {
		return wrap(Connection.class, this.pool.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return wrap(Connection.class, this.pool.getConnection(username, password));
	}

	private <T> T wrap(Class<T> type, T target) {
		InvocationHandler handler = (proxy, method, args) -> invoke(target, method, args);
		return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type }, handler));
	}

	private Object invoke(Object target, Method method, Object[] args) throws Throwable {
		String name = method.getName();
		if (name.startsWith("execute") || name.equals("isValid")) {
			pass();
		}
		Object result;
		try {
			result = method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
		if (result instanceof PreparedStatement statement) {
			return wrap(PreparedStatement.class, statement);
		}
		if (result instanceof Statement statement) {
			return wrap(Statement.class, statement);
		}
		return result;
	}

	@Override
	public PrintWriter getLogWriter() throws SQLException {
		return this.pool.getLogWriter();
	}

	@Override
	public void setLogWriter(PrintWriter out) throws SQLException {
		this.pool.setLogWriter(out);
	}

	@Override
	public void setLoginTimeout(int seconds) throws SQLException {
		this.pool.setLoginTimeout(seconds);
	}

	@Override
	public int getLoginTimeout() throws SQLException {
		return this.pool.getLoginTimeout();
	}

	@Override
	public Logger getParentLogger() {
		return Logger.getLogger("io.tributary");
	}

	@Override
	public <T> T unwrap(Class<T> type) throws SQLException {
		return this.pool.unwrap(type);
	}

	@Override
	public boolean isWrapperFor(Class<?> type) throws SQLException {
		return this.pool.isWrapperFor(type);
	}

}
