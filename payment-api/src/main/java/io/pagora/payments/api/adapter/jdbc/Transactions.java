package io.pagora.payments.api.adapter.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** One transaction on a connection the pool lent: committed if the work returns, rolled back if it throws. */
final class Transactions {

    @FunctionalInterface
    interface Work<T> {
        T apply(Connection connection) throws SQLException;
    }

    private Transactions() {}

    static <T> T run(Connection connection, Work<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.apply(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
