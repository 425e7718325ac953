package io.pagora.local.servers;

import io.pagora.local.cli.Options;
import java.nio.file.Path;

/** The local PostgreSQL's command line (postgres), read once: its defaults are written here. */
record LocalPostgresOptions(Path dataDir, int port, String user, String password, String database, int connectionsMax) {

    static LocalPostgresOptions parse(String[] args) {
        Options options = new Options("postgres", args);
        Path dataDir = options.path("data-dir").toAbsolutePath();
        int port = options.integer("port", 5432);
        String user = options.string("user", "pagora");
        String password = options.string("password", "pagora");
        String database = options.string("database", "pagora");
        int connectionsMax = options.integer("max-connections", 200);
        options.rejectUnknown();
        return new LocalPostgresOptions(dataDir, port, user, password, database, connectionsMax);
    }
}
