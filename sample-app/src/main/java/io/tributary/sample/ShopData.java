package io.tributary.sample;

/**
 * The sample's source schema: {@code shop.orders} (integer key) and {@code shop.order_items}
 * (composite key), filled with generated rows.
 */
final class ShopData {

	private ShopData() {
	}

	static void create(EmbeddedSource source, int orders) {
		source.execute("CREATE DATABASE IF NOT EXISTS shop", "CREATE DATABASE IF NOT EXISTS replica",
				"CREATE TABLE IF NOT EXISTS shop.orders (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
						+ "customer_id INT NOT NULL, status VARCHAR(20) NOT NULL, amount DECIMAL(12,2) NOT NULL, "
						+ "note VARCHAR(200) NULL, attributes JSON NULL, created_at DATETIME(6) NOT NULL, "
						+ "updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))",
				"CREATE TABLE IF NOT EXISTS shop.order_items (order_id BIGINT NOT NULL, line INT NOT NULL, "
						+ "sku VARCHAR(32) NOT NULL, quantity INT NOT NULL, price DECIMAL(10,2) NOT NULL, "
						+ "PRIMARY KEY (order_id, line))");
		// Doubling inserts reach the row count in a few statements.
		source.execute("INSERT INTO shop.orders (customer_id, status, amount, note, attributes, created_at) "
				+ "VALUES (1, 'NEW', 10.00, 'first order', JSON_OBJECT('gift', false), NOW(6))");
		int rows = 1;
		while (rows < orders) {
			int batch = Math.min(rows, orders - rows);
			source.execute("INSERT INTO shop.orders (customer_id, status, amount, note, attributes, created_at) "
					+ "SELECT customer_id + id % 977, ELT(1 + id % 4, 'NEW', 'PAID', 'SHIPPED', 'DELIVERED'), "
					+ "amount + id % 100, CONCAT('order ', id + " + rows + "), "
					+ "JSON_OBJECT('gift', id % 3 = 0, 'channel', ELT(1 + id % 2, 'web', 'shop')), "
					+ "created_at - INTERVAL id MINUTE FROM shop.orders ORDER BY id LIMIT " + batch);
			rows += batch;
		}
		source.execute("INSERT INTO shop.order_items (order_id, line, sku, quantity, price) "
				+ "SELECT id, 1, CONCAT('SKU-', id % 500), 1 + id % 3, 5.00 + id % 40 FROM shop.orders",
				"INSERT INTO shop.order_items (order_id, line, sku, quantity, price) "
						+ "SELECT id, 2, CONCAT('SKU-', id % 700), 1, 2.50 FROM shop.orders WHERE id % 2 = 0");
	}

}
