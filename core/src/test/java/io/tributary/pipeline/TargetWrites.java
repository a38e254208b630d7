package io.tributary.pipeline;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * A data source that watches the writes a pipeline makes through it and tells who makes them, by
 * the thread they run on: the catch-up loop and its apply workers flush, the checksum thread repairs,
 * the copy threads copy. Checkpoint writes, recognised by their table, count as none of these.
 *
 * <p>A flush counts as in progress from its first write statement until {@link #confirmed()} (called
 * when the loop confirms the table it applied); a repair write transaction is open from its first
 * statement until it commits, rolls back or its connection closes. Each flush write and each repair
 * transaction that begins is reported to the listener before its statement runs, so whoever watches
 * can act while it is under way.
 */
final class TargetWrites {

	/** Who a write statement belongs to. */
	enum Role {

		FLUSH, REPAIR, COPY, CHECKPOINT, OTHER

	}

	private static final Set<String> EXECUTE = Set.of("execute", "executeUpdate", "executeLargeUpdate",
			"executeBatch", "executeLargeBatch");

	private static final Set<String> WRITES = Set.of("REPLACE", "INSERT", "UPDATE", "DELETE", "TRUNCATE");

	private final DataSource pool;

	private final String checkpointTable;

	private final Runnable listener;

	private final AtomicLong flushWrites = new AtomicLong();

	private final AtomicLong repairWrites = new AtomicLong();

	private final AtomicInteger repairsOpen = new AtomicInteger();

	private volatile boolean flushing;

	/**
	 * @param pool the pool to watch
	 * @param checkpointTable the checkpoint table's name, whose writes are told apart
	 * @param listener told when a flush write or a repair transaction begins or a repair ends
	 */
	TargetWrites(DataSource pool, String checkpointTable, Runnable listener) {
		this.pool = pool;
		this.checkpointTable = checkpointTable.toLowerCase(Locale.ROOT);
		this.listener = listener;
	}

	/** The watched pool. */
	DataSource dataSource() {
		return proxy(DataSource.class, (proxy, method, args) -> {
			Object result = invoke(this.pool, method, args);
			return (result instanceof Connection connection) ? watch(connection) : result;
		});
	}

	/** Tells that the catch-up loop confirmed a table: the flush it was applying, if any, is over. */
	void confirmed() {
		if (this.flushing) {
			this.flushing = false;
			this.listener.run();
		}
	}

	boolean flushing() {
		return this.flushing;
	}

	long flushWrites() {
		return this.flushWrites.get();
	}

	long repairWrites() {
		return this.repairWrites.get();
	}

	int repairsOpen() {
		return this.repairsOpen.get();
	}

	private Connection watch(Connection connection) {
		ConnectionState state = new ConnectionState(connection);
		return proxy(Connection.class, (proxy, method, args) -> {
			String name = method.getName();
			if (name.equals("commit") || name.equals("rollback") && (args == null || args.length == 0)
					|| name.equals("close")) {
				try {
					return invoke(connection, method, args);
				}
				finally {
					state.end();
				}
			}
			Object result = invoke(connection, method, args);
			if (result instanceof PreparedStatement prepared) {
				return watch(prepared, PreparedStatement.class, state, (String) args[0]);
			}
			if (result instanceof Statement statement) {
				return watch(statement, Statement.class, state, null);
			}
			return result;
		});
	}

	private <S extends Statement> S watch(S statement, Class<S> type, ConnectionState state, String prepared) {
		return proxy(type, (proxy, method, args) -> {
			if (!EXECUTE.contains(method.getName())) {
				return invoke(statement, method, args);
			}
			String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : prepared;
			Role role = roleOf(sql);
			if (role != null) {
				state.begin(role);
			}
			try {
				return invoke(statement, method, args);
			}
			finally {
				if (role != null && state.connection.getAutoCommit()) {
					state.end();
				}
			}
		});
	}

	/** The role of a write statement on this thread, or {@code null} for a read. */
	private Role roleOf(String sql) {
		if (sql == null) {
			return null;
		}
		String text = sql.stripLeading();
		int space = text.indexOf(' ');
		if (space < 0 || !WRITES.contains(text.substring(0, space).toUpperCase(Locale.ROOT))) {
			return null;
		}
		if (text.toLowerCase(Locale.ROOT).contains(this.checkpointTable)) {
			return Role.CHECKPOINT;
		}
		String thread = Thread.currentThread().getName();
		if (thread.startsWith("tributary-apply-") || thread.startsWith("tributary-pipeline-")) {
			return Role.FLUSH;
		}
		if (thread.startsWith("tributary-checksum-")) {
			return Role.REPAIR;
		}
		return thread.startsWith("tributary-copy-") ? Role.COPY : Role.OTHER;
	}

	/** The write transaction open on one connection, if any. */
	private final class ConnectionState {

		private final Connection connection;

		private Role open;

		ConnectionState(Connection connection) {
			this.connection = connection;
		}

		synchronized void begin(Role role) {
			if (role == Role.FLUSH) {
				TargetWrites.this.flushing = true;
				TargetWrites.this.flushWrites.incrementAndGet();
				TargetWrites.this.listener.run();
			}
			else if (role == Role.REPAIR && this.open != Role.REPAIR) {
				TargetWrites.this.repairWrites.incrementAndGet();
				TargetWrites.this.repairsOpen.incrementAndGet();
				TargetWrites.this.listener.run();
			}
			this.open = role;
		}

		synchronized void end() {
			if (this.open == Role.REPAIR) {
				TargetWrites.this.repairsOpen.decrementAndGet();
				TargetWrites.this.listener.run();
			}
			this.open = null;
		}

	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, InvocationHandler handler) {
		return (T) Proxy.newProxyInstance(TargetWrites.class.getClassLoader(), new Class<?>[] { type }, handler);
	}

}
