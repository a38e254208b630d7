package io.tributary.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * A light write workload on the source: new orders with items, status changes, and the odd
 * cancelled order deleted, at {@code sample.workload.transactions-per-second}.
 */
@Component
class OrderWorkload implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(OrderWorkload.class);

	private final String url;

	private final String username;

	private final String password;

	private final int perSecond;

	private volatile boolean running;

	private Thread thread;

	OrderWorkload(@Value("${sample.source-url:}") String url, @Value("${cdc.source.username:}") String username,
			@Value("${cdc.source.password:}") String password,
			@Value("${sample.workload.transactions-per-second:20}") int perSecond) {
		this.url = url;
		this.username = username;
		this.password = password;
		this.perSecond = perSecond;
	}

	@Override
	public void start() {
		if (this.url.isEmpty() || this.perSecond <= 0) {
			return;
		}
		this.running = true;
		this.thread = new Thread(this::run, "sample-workload");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void run() {
		long pause = 1_000_000_000L / this.perSecond;
		long next = System.nanoTime();
		try (Connection connection = DriverManager.getConnection(this.url, this.username, this.password)) {
			while (this.running) {
				transaction(connection);
				next += pause;
				long wait = next - System.nanoTime();
				if (wait > 0) {
					// Pacing the write rate, not waiting for anything.
					java.util.concurrent.locks.LockSupport.parkNanos(wait);
				}
			}
		}
		catch (SQLException ex) {
			logger.warn("Sample workload stopped: {}", ex.getMessage());
		}
	}

	private void transaction(Connection connection) throws SQLException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int pick = random.nextInt(10);
		if (pick < 3) {
			try (PreparedStatement order = connection.prepareStatement(
					"INSERT INTO orders (customer_id, status, amount, note, attributes, created_at) "
							+ "VALUES (?, 'NEW', ?, 'sample workload', JSON_OBJECT('gift', ?), NOW(6))",
					PreparedStatement.RETURN_GENERATED_KEYS)) {
				order.setInt(1, random.nextInt(1000));
				order.setBigDecimal(2, java.math.BigDecimal.valueOf(random.nextInt(100_000), 2));
				order.setBoolean(3, random.nextBoolean());
				order.executeUpdate();
				try (var keys = order.getGeneratedKeys();
						PreparedStatement item = connection.prepareStatement(
								"INSERT INTO order_items (order_id, line, sku, quantity, price) VALUES (?, 1, ?, 1, 9.99)")) {
					keys.next();
					item.setLong(1, keys.getLong(1));
					item.setString(2, "SKU-" + random.nextInt(500));
					item.executeUpdate();
				}
			}
		}
		else if (pick < 9) {
			try (PreparedStatement update = connection.prepareStatement(
					"UPDATE orders SET status = ELT(1 + FLOOR(RAND() * 4), 'NEW', 'PAID', 'SHIPPED', 'DELIVERED'), "
							+ "amount = amount + 1 WHERE id = ?")) {
				update.setLong(1, 1 + random.nextLong(100_000));
				update.executeUpdate();
			}
		}
		else {
			try (PreparedStatement delete = connection.prepareStatement("DELETE FROM order_items WHERE order_id = ?")) {
				delete.setLong(1, 1 + random.nextLong(100_000));
				delete.executeUpdate();
			}
		}
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.thread != null) {
			try {
				this.thread.join(5_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
