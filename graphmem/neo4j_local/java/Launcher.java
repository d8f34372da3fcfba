/*
 * Runs a real Neo4j 5.26 community server from the jars in neo4j-local/lib, without Docker
 * and without a Neo4j tarball. graphmem's LocalNeo4j (graphmem/neo4j_local.py) starts it as
 *
 *   java -Xms1g -Xmx1g --add-opens=... -cp 'neo4j-local/lib/*' neo4j-local/Launcher.java \
 *        --data-dir=neo4j-local/data --bolt-port=7687 --http-port=7474 --auth=false
 *
 * Java's single-file source launch compiles this file in memory, so there is no build step.
 * (LocalNeo4j compiles it once into lib/launcher-<hash>/ instead, which saves ~2.5 s a start.)
 *
 * Why the embedded DatabaseManagementServiceBuilder and not CommunityEntryPoint: in 5.26 the
 * embedded factory starts the same Jetty web server as the packaged server whenever the HTTP
 * connector is enabled, so the Browser (served by neo4j-server from the classpath folder
 * browser/ of the neo4j-browser jar) and the HTTP API come for free. CommunityEntryPoint
 * additionally wants a neo4j.conf, a NEO4J_HOME layout and its own signal handling.
 *
 * Options (all --name=value):
 *   --data-dir    folder holding databases/, transactions/, dbms/ and logs/  (required)
 *   --bolt-port   Bolt port on 127.0.0.1                                     (7687)
 *   --http-port   HTTP port on 127.0.0.1, serves /browser/                   (7474)
 *   --auth        true|false                                                 (true)
 *   --page-cache  page cache size in MiB                                     (512)
 * With --auth=true the password of user neo4j is read from the first line of stdin (never
 * from argv, which every local user can read with ps), e.g. `printf '%s\n' "$PW" | java ...`.
 *
 * SIGTERM (or Ctrl-C) runs a shutdown hook that stops the DBMS cleanly, so the store needs
 * no recovery on the next start.
 */

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.log4j.Log4jLogProvider;

public class Launcher {
    private static final String HOST = "127.0.0.1";

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> opts = parse(args);
        String dataDir = opts.get("data-dir");
        if (dataDir == null) {
            fail("--data-dir is required");
        }
        Path data = Path.of(dataDir).toAbsolutePath();
        int boltPort = intOpt(opts, "bolt-port", 7687);
        int httpPort = intOpt(opts, "http-port", 7474);
        int pageCacheMiB = intOpt(opts, "page-cache", 512);
        boolean auth = Boolean.parseBoolean(opts.getOrDefault("auth", "true"));
        String password = auth ? readPassword() : null;

        DatabaseManagementService dbms;
        try {
            dbms = build(data, boltPort, httpPort, pageCacheMiB, auth);
        } catch (RuntimeException e) {
            // A port grabbed between the caller's check and now, a locked store...: say it and
            // exit, instead of leaving a JVM kept alive by half-started Neo4j threads.
            e.printStackTrace();
            fail("Neo4j failed to start: " + e);
            return;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("graphmem-launcher: shutting down");
            dbms.shutdown();
            System.out.println("graphmem-launcher: stopped");
            stopped.countDown();
        }, "graphmem-neo4j-shutdown"));

        if (auth) {
            try {
                setPassword(dbms, password);
            } catch (RuntimeException e) {
                e.printStackTrace();
                fail("could not set the password of user neo4j: " + e); // the hook stops Neo4j
            }
        }
        System.out.printf("graphmem-launcher: ready bolt://%s:%d http://%s:%d/browser/ auth=%s%n",
                HOST, boltPort, HOST, httpPort, auth);
        stopped.await();
    }

    private static DatabaseManagementService build(
            Path data, int boltPort, int httpPort, int pageCacheMiB, boolean auth) {
        return new DatabaseManagementServiceBuilder(data)
                .setUserLogProvider(new Log4jLogProvider(System.out))
                .setConfig(GraphDatabaseSettings.data_directory, data)
                .setConfig(GraphDatabaseSettings.logs_directory, data.resolve("logs"))
                .setConfig(GraphDatabaseSettings.default_listen_address, new SocketAddress(HOST))
                .setConfig(GraphDatabaseSettings.default_advertised_address,
                        new SocketAddress(HOST))
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMiB))
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                // No phoning home: the machines this runs on often have no internet at all.
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                // Netty's default 5 s quiet period, paid twice, made every stop take 12 s.
                // The databases are checkpointed and closed before Bolt stops, so 0 is safe.
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, boltPort))
                // Advertised addresses feed the discovery document Neo4j Browser reads at /.
                .setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, boltPort))
                .setConfig(HttpConnector.enabled, true)
                .setConfig(HttpConnector.listen_address, new SocketAddress(HOST, httpPort))
                .setConfig(HttpConnector.advertised_address, new SocketAddress(HOST, httpPort))
                .build();
    }

    /*
     * Makes the configured password authoritative on every start. The embedded API runs with
     * full rights and needs no login, so this works on a fresh store (where neo4j/neo4j must be
     * changed) and after the configured password changed. Until it has run, clients using the
     * configured password are refused, which the caller's readiness probe simply retries.
     */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
        } catch (RuntimeException e) {
            // Neo4j rejects setting the password it already has; that is the wanted state.
            String message = String.valueOf(e.getMessage());
            if (!message.contains("Old password and new password cannot be the same")) {
                throw e;
            }
        }
    }

    private static String readPassword() {
        String password = null;
        try {
            var stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            password = stdin.readLine();
        } catch (IOException e) {
            fail("could not read the password from stdin: " + e);
        }
        if (password == null || password.length() < 8) {
            // Neo4j refuses passwords shorter than 8 characters; say so before starting.
            fail("--auth=true needs the password (8+ characters) on the first line of stdin");
        }
        return password;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                fail("unexpected argument " + arg + " (use --name=value)");
            }
            opts.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return opts;
    }

    private static int intOpt(Map<String, String> opts, String name, int fallback) {
        String value = opts.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            fail("--" + name + " must be an integer, got " + value);
            return fallback;
        }
    }

    private static void fail(String message) {
        System.err.println("graphmem-launcher: " + message);
        System.exit(2);
    }
}
