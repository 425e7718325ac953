package io.pagora.reporting.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A JDBC wrapper over the real DataSource (not a mock: every call reaches PostgreSQL) that records, for
 * the threads it watches, each transaction and the statements prepared in it. A transaction starts at
 * {@code setAutoCommit(false)} and ends at {@code commit()} or {@code rollback()}.
 */
public final class CountingDataSource extends DelegatingDataSource {

    /** One finished transaction: how many statements it prepared, and whether it committed. */
    public record Transaction(String thread, int statements, boolean committed) {}

    private final Predicate<String> watchedThreads;
    private final List<Transaction> transactions = new CopyOnWriteArrayList<>();

    public CountingDataSource(DataSource target, Predicate<String> watchedThreads) {
        super(target);
        this.watchedThreads = watchedThreads;
    }

    public List<Transaction> transactions() {
        return List.copyOf(transactions);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return watch(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return watch(super.getConnection(username, password));
    }

    private Connection watch(Connection connection) {
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, new Recorder(connection));
    }

    private final class Recorder implements InvocationHandler {
        private final Connection target;
        private int statements;
        private boolean inTransaction;

        Recorder(Connection target) {
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (watchedThreads.test(Thread.currentThread().getName())) {
                switch (method.getName()) {
                    case "setAutoCommit" -> {
                        if (!(Boolean) args[0]) {
                            inTransaction = true;
                            statements = 0;
                        }
                    }
                    case "prepareStatement", "createStatement", "prepareCall" -> statements++;
                    case "commit", "rollback" -> {
                        if (inTransaction) {
                            transactions.add(new Transaction(
                                    Thread.currentThread().getName(),
                                    statements,
                                    method.getName().equals("commit")));
                            inTransaction = false;
                        }
                    }
                    default -> {}
                }
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
