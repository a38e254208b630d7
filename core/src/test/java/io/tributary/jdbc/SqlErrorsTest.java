package io.tributary.jdbc;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SqlErrorsTest {

	@Test
	void contentionIsADeadlockOrALockWaitTimeoutAnywhereInTheChain() {
		assertThat(SqlErrors.contentionCode(new SQLTransactionRollbackException("deadlock", "40001", 1213)))
			.isEqualTo(1213);
		assertThat(SqlErrors.contentionCode(new RuntimeException("write failed",
				new SQLException("wrapped", "HY000", 0, new SQLException("lock wait", "HY000", 1205))))).isEqualTo(1205);
		BatchUpdateException batch = new BatchUpdateException("batch", "HY000", 0, new int[0], null);
		batch.setNextException(new SQLException("deadlock", "40001", 1213));
		assertThat(SqlErrors.isContention(batch)).isTrue();
		SQLException rollbackFailed = new SQLException("rollback failed", "08S01", 0);
		rollbackFailed.addSuppressed(new SQLException("lock wait", "HY000", 1205));
		assertThat(SqlErrors.isContention(rollbackFailed)).isTrue();
		assertThat(SqlErrors.isContention(new SQLException("duplicate", "23000", 1062))).isFalse();
		assertThat(SqlErrors.isContention(null)).isFalse();
	}

	@Test
	void namesContention() {
		assertThat(SqlErrors.describeContention(SqlErrors.ER_LOCK_DEADLOCK)).isEqualTo("deadlock");
		assertThat(SqlErrors.describeContention(SqlErrors.ER_LOCK_WAIT_TIMEOUT)).isEqualTo("lock wait timeout");
	}

	@Test
	void connectionLevelIsClass08OrATransientConnectionOrRecoverableError() {
		assertThat(SqlErrors.isConnectionLevel(new SQLNonTransientConnectionException("gone", "08S01", 0))).isTrue();
		assertThat(SqlErrors.isConnectionLevel(new SQLException("link failure", "08003", 0))).isTrue();
		assertThat(SqlErrors.isConnectionLevel(new SQLTransientConnectionException("pool timeout"))).isTrue();
		assertThat(SqlErrors.isConnectionLevel(new SQLRecoverableException("reset"))).isTrue();
		assertThat(SqlErrors.isConnectionLevel(new IllegalStateException(new SQLException("x", "08S01", 0))))
			.isTrue();
		assertThat(SqlErrors.isConnectionLevel(new SQLException("syntax", "42000", 1064))).isFalse();
		assertThat(SqlErrors.isConnectionLevel(new SQLException("no state"))).isFalse();
	}

	@Test
	void aRefusedLoadIsOneOfTheLocalInfileCodes() {
		assertThat(SqlErrors.isLoadRefused(new SQLException("mysql", "42000", 3948))).isTrue();
		assertThat(SqlErrors.isLoadRefused(new SQLException("mariadb", "HY000", 4166))).isTrue();
		assertThat(SqlErrors.isLoadRefused(new SQLException("wrapped", "HY000", 0,
				new SQLException("old server", "42000", 1148)))).isTrue();
		assertThat(SqlErrors.isLoadRefused(new SQLException("warning", "01000", 1265))).isFalse();
	}

	@Test
	void permanentFailuresAreFoundThroughNextExceptionsToo() {
		SQLException batch = new SQLException("batch", "HY000", 0);
		batch.setNextException(new SQLException("no such table", "42S02", 1146));
		assertThat(PermanentFailure.of(batch)).extracting(PermanentFailure::errorCode).isEqualTo(1146);
		assertThat(PermanentFailure.of(new SQLException("deadlock", "40001", 1213))).isNull();
	}

	@Test
	void aCyclicChainEnds() {
		SQLException first = new SQLException("first", "HY000", 0);
		SQLException second = new SQLException("second", "HY000", 0);
		first.addSuppressed(second);
		second.addSuppressed(first);
		assertThat(SqlErrors.isContention(first)).isFalse();
	}

}
