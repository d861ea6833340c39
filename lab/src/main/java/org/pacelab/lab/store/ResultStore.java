package org.pacelab.lab.store;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.report.ConfigurationRuns;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.table.PacketCsvWriter;
import org.pacelab.lab.plan.Configuration;

/**
 * One campaign's results in one embedded DuckDB file: the campaign's record (scenario, environment), its
 * configurations, finished runs with the runner's measurements, the analysis summary of each run (one column per
 * summary field), the per-packet tables and the congestion timelines, and a log of every attempt.
 * <p>
 * Crash safety: each finished repetition is written in one transaction (run row, summary, packets, timeline); DuckDB
 * makes a commit durable in its write-ahead log before it returns and discards uncommitted work when the file is
 * opened again, so a runner killed at any moment leaves every finished run whole and no half-written one. A run
 * is "finished" exactly when its row is in {@code runs}; resuming skips those.
 */
public final class ResultStore implements AutoCloseable {
    public static final String FILE_NAME = "campaign.duckdb";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CongestionTimeline.Column[] TIMELINE = CongestionTimeline.Column.values();

    private final Path file;
    private final Connection db;

    private ResultStore(Path file, Connection db) {
        this.file = file;
        this.db = db;
    }

    /** Opens (or creates) the store; the schema is created or extended to this build's summary fields. */
    public static ResultStore open(Path file) throws StoreException {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
            DuckDbNativeCopies.tidy(); // the driver's copy of its native library in java.io.tmpdir, once per JVM
            ResultStore s = new ResultStore(file, c);
            s.createSchema();
            return s;
        } catch (SQLException | IOException e) {
            throw new StoreException(file + ": cannot open the results store: " + firstLine(e.getMessage())
                    + (String.valueOf(e.getMessage()).contains("lock") ? " (is another 'pacelab run' using this campaign?)" : ""), e);
        }
    }

    /** Opens an existing store for reading; a missing file is an error naming it. */
    public static ResultStore openExisting(Path file) throws StoreException {
        if (!Files.isRegularFile(file)) {
            throw new StoreException(file + ": no results store here (a campaign's store is <campaign dir>/" + FILE_NAME + ")");
        }
        return open(file);
    }

    public Path file() {
        return file;
    }

    private void createSchema() throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS campaign (key VARCHAR PRIMARY KEY, value VARCHAR)");
            s.execute("""
                    CREATE TABLE IF NOT EXISTS configurations (config_id VARCHAR PRIMARY KEY, name VARCHAR NOT NULL,
                      implementation VARCHAR, mode VARCHAR, server VARCHAR, client VARCHAR, server_options VARCHAR,
                      client_options VARCHAR, qdisc VARCHAR, preset VARCHAR, link_down VARCHAR, link_up VARCHAR,
                      link_down_resolved VARCHAR, link_up_resolved VARCHAR, bytes_per_stream BIGINT, streams INTEGER,
                      sweep VARCHAR, server_version VARCHAR, client_version VARCHAR, position INTEGER)""");
            s.execute("""
                    CREATE TABLE IF NOT EXISTS runs (run_key VARCHAR PRIMARY KEY, config_id VARCHAR NOT NULL,
                      repetition INTEGER NOT NULL, seed BIGINT, attempt INTEGER, started_at TIMESTAMP, duration_s DOUBLE,
                      client_wall_s DOUBLE, bytes BIGINT, run_dir VARCHAR)""");
            s.execute("""
                    CREATE TABLE IF NOT EXISTS attempts (run_key VARCHAR NOT NULL, attempt INTEGER NOT NULL, status VARCHAR,
                      error VARCHAR, started_at TIMESTAMP, duration_s DOUBLE, PRIMARY KEY (run_key, attempt))""");
            s.execute("CREATE TABLE IF NOT EXISTS summaries (run_key VARCHAR PRIMARY KEY)");
            for (SummaryField f : SummaryField.values()) {
                s.execute("ALTER TABLE summaries ADD COLUMN IF NOT EXISTS " + f.jsonName() + " " + sqlType(f));
                if (f.metric()) {
                    s.execute("ALTER TABLE summaries ADD COLUMN IF NOT EXISTS " + f.reasonName() + " VARCHAR");
                }
            }
            s.execute("""
                    CREATE TABLE IF NOT EXISTS packets (run_key VARCHAR NOT NULL, frame BIGINT, time_ns BIGINT, dir VARCHAR,
                      bytes INTEGER, packet_types VARCHAR, packet_numbers VARCHAR, ipg_ns BIGINT, train BIGINT,
                      train_length INTEGER, retransmission INTEGER, send_delay_ns BIGINT, target_gap_ns BIGINT)""");
            StringBuilder t = new StringBuilder("CREATE TABLE IF NOT EXISTS timelines (run_key VARCHAR NOT NULL, seq BIGINT, time_s DOUBLE");
            for (CongestionTimeline.Column c : TIMELINE) {
                t.append(", ").append(c.csvName()).append(" DOUBLE");
            }
            s.execute(t.append(')').toString());
        }
    }

    private static String sqlType(SummaryField f) {
        return switch (f.kind()) {
            case INTEGER -> "BIGINT";
            case NUMBER -> "DOUBLE";
            case STRING -> "VARCHAR";
            case BOOLEAN -> "BOOLEAN";
        };
    }

    // ---- campaign and configurations -------------------------------------------------------------------------

    public synchronized void putCampaignInfo(Map<String, String> info) throws StoreException {
        inTransaction("record the campaign", () -> {
            try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO campaign VALUES (?, ?)")) {
                for (Map.Entry<String, String> e : info.entrySet()) {
                    p.setString(1, e.getKey());
                    p.setString(2, e.getValue());
                    p.executeUpdate();
                }
            }
        });
    }

    public synchronized Map<String, String> campaignInfo() throws StoreException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT key, value FROM campaign ORDER BY key")) {
            while (r.next()) {
                out.put(r.getString(1), r.getString(2));
            }
        } catch (SQLException e) {
            throw fail("read the campaign record", e);
        }
        return out;
    }

    /** Records a configuration; {@code position} orders configurations in reports (the scenario's order). */
    public synchronized void putConfiguration(Configuration c, int position, String serverVersion, String clientVersion)
            throws StoreException {
        inTransaction("record configuration " + c.name(), () -> {
            try (PreparedStatement p = db.prepareStatement(
                    "INSERT OR REPLACE INTO configurations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                int i = 1;
                p.setString(i++, c.id());
                p.setString(i++, c.name());
                p.setString(i++, c.implementation());
                p.setString(i++, c.mode().word());
                p.setString(i++, c.server().name());
                p.setString(i++, c.client().name());
                p.setString(i++, json(c.serverOptions()));
                p.setString(i++, json(c.clientOptions()));
                p.setString(i++, c.qdisc());
                p.setString(i++, c.preset());
                p.setString(i++, c.linkDown());
                p.setString(i++, c.linkUp());
                p.setString(i++, c.link().down().format());
                p.setString(i++, c.link().up().format());
                p.setLong(i++, c.transfer().bytesPerStream());
                p.setInt(i++, c.transfer().streams());
                p.setString(i++, json(c.sweepPoint()));
                p.setString(i++, serverVersion);
                p.setString(i++, clientVersion);
                p.setInt(i, position);
                p.executeUpdate();
            }
        });
    }

    // ---- runs ------------------------------------------------------------------------------------------------

    /** Keys of the runs that finished (and will not run again). */
    public synchronized Set<String> finishedRuns() throws StoreException {
        Set<String> out = new LinkedHashSet<>();
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT run_key FROM runs ORDER BY run_key")) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        } catch (SQLException e) {
            throw fail("list finished runs", e);
        }
        return out;
    }

    /** How many attempts of this run are recorded (finished or failed). */
    public synchronized int attempts(String runKey) throws StoreException {
        try (PreparedStatement p = db.prepareStatement("SELECT count(*) FROM attempts WHERE run_key = ?")) {
            p.setString(1, runKey);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        } catch (SQLException e) {
            throw fail("count attempts", e);
        }
    }

    /** Records a failed attempt (the run stays unfinished and runs again on resume). */
    public synchronized void recordFailure(String runKey, int attempt, String error, Instant startedAt, double durationS)
            throws StoreException {
        inTransaction("record a failed attempt of " + runKey, () -> insertAttempt(runKey, attempt, "failed", error, startedAt, durationS));
    }

    /**
     * Records a finished run in one transaction: its row, its summary, its per-packet table and its timeline. Either
     * all of it is stored or, after a crash, none of it.
     */
    public synchronized void recordFinished(FinishedRun run) throws StoreException {
        inTransaction("store run " + run.runKey(), () -> {
            try (PreparedStatement p = db.prepareStatement("DELETE FROM packets WHERE run_key = ?")) {
                p.setString(1, run.runKey());
                p.executeUpdate();
            }
            try (PreparedStatement p = db.prepareStatement("DELETE FROM timelines WHERE run_key = ?")) {
                p.setString(1, run.runKey());
                p.executeUpdate();
            }
            try (PreparedStatement p = db.prepareStatement("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                p.setString(1, run.runKey());
                p.setString(2, run.configId());
                p.setInt(3, run.repetition());
                p.setLong(4, run.seed());
                p.setInt(5, run.attempt());
                p.setTimestamp(6, Timestamp.from(run.startedAt()));
                p.setDouble(7, run.durationS());
                setDouble(p, 8, run.clientWallS());
                p.setLong(9, run.bytes());
                p.setString(10, run.runDir().toString());
                p.executeUpdate();
            }
            insertAttempt(run.runKey(), run.attempt(), "finished", null, run.startedAt(), run.durationS());
            insertSummary(run.runKey(), run.summary());
            if (run.packetsCsv() != null) {
                requireHeader(run.packetsCsv(), PacketCsvWriter.HEADER);
                try (Statement s = db.createStatement()) {
                    s.executeUpdate("INSERT INTO packets SELECT " + literal(run.runKey()) + ", * FROM read_csv(" + literal(run.packetsCsv().toString())
                            + ", header = true, auto_detect = false, columns = {'frame': 'BIGINT', 'time_ns': 'BIGINT', 'dir': 'VARCHAR', "
                            + "'bytes': 'INTEGER', 'packet_types': 'VARCHAR', 'packet_numbers': 'VARCHAR', 'ipg_ns': 'BIGINT', "
                            + "'train': 'BIGINT', 'train_length': 'INTEGER', 'retransmission': 'INTEGER', 'send_delay_ns': 'BIGINT', "
                            + "'target_gap_ns': 'BIGINT'})");
                }
            }
            if (run.timelineCsv() != null) {
                StringBuilder cols = new StringBuilder("'time_s': 'DOUBLE'");
                for (CongestionTimeline.Column c : TIMELINE) {
                    cols.append(", '").append(c.csvName()).append("': 'DOUBLE'");
                }
                try (Statement s = db.createStatement()) {
                    s.executeUpdate("INSERT INTO timelines SELECT " + literal(run.runKey()) + ", row_number() OVER (), * FROM read_csv("
                            + literal(run.timelineCsv().toString()) + ", header = true, auto_detect = false, columns = {" + cols + "})");
                }
            }
        });
    }

    private void insertAttempt(String runKey, int attempt, String status, String error, Instant startedAt, double durationS)
            throws SQLException {
        try (PreparedStatement p = db.prepareStatement("INSERT OR REPLACE INTO attempts VALUES (?, ?, ?, ?, ?, ?)")) {
            p.setString(1, runKey);
            p.setInt(2, attempt);
            p.setString(3, status);
            p.setString(4, error);
            p.setTimestamp(5, Timestamp.from(startedAt));
            setDouble(p, 6, durationS);
            p.executeUpdate();
        }
    }

    private void insertSummary(String runKey, Summary s) throws SQLException {
        List<String> cols = new ArrayList<>(List.of("run_key"));
        List<Object> values = new ArrayList<>(List.of(runKey));
        for (SummaryField f : SummaryField.values()) {
            cols.add(f.jsonName());
            values.add(s.get(f));
            if (f.metric()) {
                cols.add(f.reasonName());
                values.add(s.has(f) ? null : s.reason(f));
            }
        }
        String sql = "INSERT OR REPLACE INTO summaries (" + String.join(", ", cols) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(cols.size(), "?")) + ")";
        try (PreparedStatement p = db.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                Object v = values.get(i);
                switch (v) {
                    case null -> p.setNull(i + 1, Types.NULL);
                    case Long l -> p.setLong(i + 1, l);
                    case Double d -> p.setDouble(i + 1, d);
                    case Boolean b -> p.setBoolean(i + 1, b);
                    default -> p.setString(i + 1, v.toString());
                }
            }
            p.executeUpdate();
        }
    }

    // ---- reading for reports ---------------------------------------------------------------------------------

    /** A configuration as stored, with its finished runs' keys in repetition order. */
    public record StoredConfiguration(String id, String name, String mode, String server, String client,
                                      String serverVersion, String clientVersion, List<String> runKeys) {}

    /** Configurations with at least one finished run, in the order they were first recorded. */
    public synchronized List<StoredConfiguration> configurations() throws StoreException {
        Map<String, StoredConfiguration> out = new LinkedHashMap<>();
        String sql = """
                SELECT c.config_id, c.name, c.mode, c.server, c.client, c.server_version, c.client_version, r.run_key
                FROM configurations c JOIN runs r ON r.config_id = c.config_id
                ORDER BY c.position, r.repetition""";
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                String id = r.getString(1);
                StoredConfiguration c = out.get(id);
                if (c == null) {
                    c = new StoredConfiguration(id, r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                            r.getString(6), r.getString(7), new ArrayList<>());
                    out.put(id, c);
                }
                c.runKeys().add(r.getString(8));
            }
        } catch (SQLException e) {
            throw fail("list configurations", e);
        }
        return List.copyOf(out.values());
    }

    /**
     * What a configuration varied and how it was linked, for reports that plot against a swept parameter.
     *
     * @param sweep    the configuration's sweep point (key to value, in the scenario's order)
     * @param linkDown the downlink as the configuration gave it
     */
    public record ConfigurationPoint(String implementation, Map<String, String> sweep, String linkDown) {}

    /** The sweep point, implementation and downlink of a configuration; null if it is not in the store. */
    public synchronized ConfigurationPoint point(String configId) throws StoreException {
        try (PreparedStatement p = db.prepareStatement("SELECT implementation, sweep, link_down FROM configurations WHERE config_id = ?")) {
            p.setString(1, configId);
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                Map<String, String> sweep = new LinkedHashMap<>();
                String text = r.getString(2);
                if (text != null && !text.isBlank()) {
                    JSON.readTree(text).properties().forEach(e -> sweep.put(e.getKey(), e.getValue().asText()));
                }
                return new ConfigurationPoint(r.getString(1), sweep, r.getString(3));
            }
        } catch (SQLException e) {
            throw fail("read configuration " + configId, e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException(file + ": configuration " + configId + " has an unreadable sweep point: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** The runs of these configurations, rebuilt for the analysis report: summary, distributions, timeline. */
    public synchronized List<ConfigurationRuns> reportInput(List<StoredConfiguration> configurations) throws StoreException {
        List<ConfigurationRuns> out = new ArrayList<>();
        for (StoredConfiguration c : configurations) {
            List<RunResult> runs = new ArrayList<>();
            for (String key : c.runKeys()) {
                runs.add(new RunResult(key, summary(key), distributions(key), timeline(key)));
            }
            if (!runs.isEmpty()) {
                out.add(new ConfigurationRuns(c.name(), runs));
            }
        }
        return out;
    }

    /** The stored summary of one run. */
    public synchronized Summary summary(String runKey) throws StoreException {
        try (PreparedStatement p = db.prepareStatement("SELECT * FROM summaries WHERE run_key = ?")) {
            p.setString(1, runKey);
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    throw new StoreException(file + ": run " + runKey + " has no summary");
                }
                Summary s = new Summary();
                for (SummaryField f : SummaryField.values()) {
                    Object v = switch (f.kind()) {
                        case INTEGER -> {
                            long x = r.getLong(f.jsonName());
                            yield r.wasNull() ? null : x;
                        }
                        case NUMBER -> {
                            double x = r.getDouble(f.jsonName());
                            yield r.wasNull() ? null : x;
                        }
                        case BOOLEAN -> {
                            boolean x = r.getBoolean(f.jsonName());
                            yield r.wasNull() ? null : x;
                        }
                        case STRING -> r.getString(f.jsonName());
                    };
                    if (v != null) {
                        s.put(f, v);
                    } else if (f.metric()) {
                        String reason = r.getString(f.reasonName());
                        if (reason != null) {
                            s.unavailable(f, reason);
                        }
                    }
                }
                return s;
            }
        } catch (SQLException e) {
            throw fail("read the summary of " + runKey, e);
        }
    }

    private RunDistributions distributions(String runKey) throws StoreException {
        RunDistributions d = RunDistributions.empty();
        try {
            query("SELECT ipg_ns, count(*) FROM packets WHERE run_key = ? AND dir = 's2c' AND ipg_ns IS NOT NULL GROUP BY ipg_ns",
                    runKey, r -> d.gaps().recordCount(r.getLong(1), r.getLong(2)));
            query("SELECT len, count(*) FROM (SELECT any_value(train_length) AS len FROM packets WHERE run_key = ? AND dir = 's2c' "
                    + "AND train IS NOT NULL GROUP BY train) GROUP BY len", runKey, r -> d.trains().addTrains(r.getInt(1), r.getLong(2)));
            query("SELECT send_delay_ns, count(*) FROM packets WHERE run_key = ? AND dir = 's2c' AND send_delay_ns IS NOT NULL "
                    + "GROUP BY send_delay_ns", runKey, r -> d.sendDelays().recordCount(r.getLong(1), r.getLong(2)));
        } catch (SQLException e) {
            throw fail("read the packets of " + runKey, e);
        }
        return d;
    }

    private CongestionTimeline timeline(String runKey) throws StoreException {
        CongestionTimeline t = new CongestionTimeline();
        StringBuilder cols = new StringBuilder("time_s");
        for (CongestionTimeline.Column c : TIMELINE) {
            cols.append(", ").append(c.csvName());
        }
        double[] v = new double[TIMELINE.length];
        try {
            query("SELECT " + cols + " FROM timelines WHERE run_key = ? ORDER BY seq", runKey, r -> {
                for (int i = 0; i < TIMELINE.length; i++) {
                    double x = r.getDouble(i + 2);
                    v[i] = r.wasNull() ? Double.NaN : x;
                }
                t.add(r.getDouble(1), v);
            });
        } catch (SQLException e) {
            throw fail("read the timeline of " + runKey, e);
        }
        return t.size() == 0 ? null : t;
    }

    // ---- export ----------------------------------------------------------------------------------------------

    /** The tables {@link #export} writes, each as SQL. */
    static final Map<String, String> EXPORTS = new LinkedHashMap<>();

    static {
        EXPORTS.put("configurations", "SELECT * FROM configurations ORDER BY position");
        EXPORTS.put("runs", "SELECT c.name AS configuration, r.* FROM runs r JOIN configurations c USING (config_id) "
                + "ORDER BY c.position, r.repetition");
        EXPORTS.put("summaries", "SELECT c.name AS configuration, r.repetition, s.* FROM summaries s JOIN runs r USING (run_key) "
                + "JOIN configurations c USING (config_id) ORDER BY c.position, r.repetition");
        EXPORTS.put("packets", "SELECT * FROM packets ORDER BY run_key, frame");
        EXPORTS.put("timelines", "SELECT * FROM timelines ORDER BY run_key, seq");
        EXPORTS.put("attempts", "SELECT * FROM attempts ORDER BY run_key, attempt");
    }

    /** Writes every table into {@code dir} as {@code <table>.csv} or {@code .parquet}, each file atomically. */
    public synchronized List<Path> export(Path dir, ExportFormat format) throws StoreException {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> e : EXPORTS.entrySet()) {
                Path target = dir.resolve(e.getKey() + "." + format.extension).toAbsolutePath();
                Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
                Files.deleteIfExists(tmp);
                try (Statement s = db.createStatement()) {
                    s.execute("COPY (" + e.getValue() + ") TO " + literal(tmp.toString()) + " " + format.copyOptions);
                }
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException ex) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
                written.add(target);
            }
        } catch (SQLException | IOException e) {
            throw new StoreException(file + ": cannot export to " + dir + ": " + firstLine(e.getMessage()), e);
        }
        return written;
    }

    /** Folds the write-ahead log into the database file. */
    public synchronized void checkpoint() throws StoreException {
        try (Statement s = db.createStatement()) {
            s.execute("CHECKPOINT");
        } catch (SQLException e) {
            throw fail("checkpoint", e);
        }
    }

    @Override
    public synchronized void close() throws StoreException {
        try {
            db.close();
        } catch (SQLException e) {
            throw fail("close", e);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private interface Work {
        void run() throws SQLException;
    }

    private interface Row {
        void accept(ResultSet r) throws SQLException;
    }

    private void query(String sql, String runKey, Row row) throws SQLException {
        try (PreparedStatement p = db.prepareStatement(sql)) {
            p.setString(1, runKey);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    row.accept(r);
                }
            }
        }
    }

    private void inTransaction(String what, Work work) throws StoreException {
        try {
            db.setAutoCommit(false);
            try {
                work.run();
                db.commit();
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            } finally {
                db.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw fail(what, e);
        }
    }

    private StoreException fail(String what, SQLException e) {
        return new StoreException(file + ": cannot " + what + ": " + firstLine(e.getMessage()), e);
    }

    private static void setDouble(PreparedStatement p, int i, double v) throws SQLException {
        if (Double.isFinite(v)) {
            p.setDouble(i, v);
        } else {
            p.setNull(i, Types.DOUBLE);
        }
    }

    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String json(Map<String, String> m) {
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Refuses a table whose columns are not the ones this store reads (e.g. written by another pacelab version). */
    private static void requireHeader(Path csv, String header) throws SQLException {
        String first;
        try (var r = Files.newBufferedReader(csv)) {
            first = r.readLine();
        } catch (IOException e) {
            throw new SQLException(csv + ": cannot be read: " + e.getMessage(), e);
        }
        if (first == null || !first.strip().equals(header)) {
            throw new SQLException(csv + ":1: expected the header " + header + ", found " + (first == null ? "an empty file" : first));
        }
    }
}
