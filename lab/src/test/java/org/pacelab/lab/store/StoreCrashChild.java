package org.pacelab.lab.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Run in a child JVM by {@link ResultStoreTest}: stores one finished run, then either stops inside an
 * uncommitted transaction that writes a second run ({@code open-transaction}) or right after committing the
 * second run through the store ({@code after-commit}); either way it then waits to be killed with SIGKILL.
 */
public final class StoreCrashChild {
    private StoreCrashChild() {}

    public static void main(String[] args) throws Exception {
        Path storeFile = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        String mode = args[2];
        try (ResultStore store = ResultStore.open(storeFile)) {
            store.recordFinished(StoreFixtures.run("c/1", "c", 1, Files.createDirectories(dir.resolve("1")), 30.0, true));
            if (mode.equals("after-commit")) {
                store.recordFinished(StoreFixtures.run("c/2", "c", 2, Files.createDirectories(dir.resolve("2")), 31.0, true));
                System.out.println("COMMITTED");
                System.out.flush();
                Thread.sleep(600_000);
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + storeFile.toAbsolutePath());
             Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("INSERT INTO runs (run_key, config_id, repetition) VALUES ('c/2', 'c', 2)");
            s.execute("INSERT INTO packets (run_key, frame) SELECT 'c/2', range FROM range(200000)");
            s.execute("INSERT INTO summaries (run_key, packets) VALUES ('c/2', 99)");
            System.out.println("IN_TRANSACTION");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
