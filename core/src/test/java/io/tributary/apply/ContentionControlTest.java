package io.tributary.apply;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;

import org.junit.jupiter.api.Test;

import io.tributary.jdbc.SqlErrors;

import static org.assertj.core.api.Assertions.assertThat;

class ContentionControlTest {

	@Test
	void halvesOnceForStatementsThatWereInFlightTogether() {
		ContentionControl control = new ContentionControl(8, 20);
		long epoch = control.epoch();

		control.contended(epoch);
		control.contended(epoch);
		control.contended(epoch);

		assertThat(control.limit()).isEqualTo(4);
		control.contended(control.epoch());
		assertThat(control.limit()).isEqualTo(2);
		control.contended(control.epoch());
		control.contended(control.epoch());
		assertThat(control.limit()).isEqualTo(1);
	}

	@Test
	void growsByOneAfterARunOfSuccessesUpToTheMaximum() {
		ContentionControl control = new ContentionControl(4, 3);
		control.contended(control.epoch());
		assertThat(control.limit()).isEqualTo(2);

		control.succeeded();
		control.succeeded();
		assertThat(control.limit()).isEqualTo(2);
		control.succeeded();
		assertThat(control.limit()).isEqualTo(3);
		for (int i = 0; i < 30; i++) {
			control.succeeded();
		}
		assertThat(control.limit()).isEqualTo(4);
	}

	@Test
	void contentionRestartsTheRunOfSuccesses() {
		ContentionControl control = new ContentionControl(4, 3);
		control.contended(control.epoch());
		control.succeeded();
		control.succeeded();
		control.contended(control.epoch());
		control.succeeded();
		control.succeeded();
		assertThat(control.limit()).isEqualTo(1);
		control.succeeded();
		assertThat(control.limit()).isEqualTo(2);
	}

	@Test
	void recognizesDeadlocksAndLockWaitTimeoutsOnly() {
		assertThat(SqlErrors.contentionCode(new SQLTransactionRollbackException("deadlock", "40001", 1213)))
			.isEqualTo(1213);
		assertThat(SqlErrors.contentionCode(new SQLException("wrapped", "HY000", 0,
				new SQLException("lock wait", "HY000", 1205)))).isEqualTo(1205);
		SQLException batch = new SQLException("batch", "HY000", 0);
		batch.setNextException(new SQLException("deadlock", "40001", 1213));
		assertThat(SqlErrors.contentionCode(batch)).isEqualTo(1213);
		assertThat(SqlErrors.contentionCode(new SQLException("duplicate", "23000", 1062))).isZero();
	}

}
