package io.axscheduler.bench.peers;

import java.time.Instant;
import javax.sql.DataSource;

/**
 * One scheduler library under the workloads. Every job carries an int id; its body first calls {@link Runs#ran(int)}
 * (W1, W2) or {@link Fires#fired(int, long)} (W3).
 */
interface Peer {

    /** The suffix of this peer's database, dropped and made anew for every (system, workload). */
    String database();

    long pollMs();

    /** Creates the tables and builds the scheduler, without starting it. */
    void setUp(DataSource dataSource) throws Exception;

    /** W1: jobs 0 … n − 1, all due now, stored while the scheduler is stopped. */
    void preload(int n) throws Exception;

    void start() throws Exception;

    /** W2: one job due at {@code due}, the scheduler running. */
    void submit(int id, Instant due) throws Exception;

    /** W3: schedule i fires at {@code firstMs[i]} + n × 60 s; stored while the scheduler is stopped. */
    void recurring(long[] firstMs) throws Exception;

    void stop() throws Exception;

    /** W3: the finest first fire time the library can express. */
    default long phaseResolutionMs() {
        return 1;
    }
}
