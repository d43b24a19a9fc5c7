package io.axscheduler.scheduler.remote.route;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code CONSISTENT_HASH}: a job key always goes to the same worker while the set of workers stays the same, and
 * when one joins or leaves only about 1/n of the keys move. Each worker sits on a hash ring at
 * {@value #POINTS_PER_WORKER} points so keys spread evenly; the fallbacks are the next workers along the ring.
 */
public final class ConsistentHashRoute implements WorkerRoute {

    static final int POINTS_PER_WORKER = 100;

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        TreeMap<Long, Candidate> ring = new TreeMap<>();
        for (Candidate worker : workers) {
            for (int i = 0; i < POINTS_PER_WORKER; i++) {
                ring.put(hash(worker.workerId() + "#" + i), worker);
            }
        }
        Set<Candidate> ordered = new LinkedHashSet<>();
        long key = hash(request.jobKey());
        for (Map.Entry<Long, Candidate> point : ring.tailMap(key, true).entrySet()) {
            ordered.add(point.getValue());
            if (ordered.size() == workers.size()) return new ArrayList<>(ordered);
        }
        ordered.addAll(ring.values());
        return new ArrayList<>(ordered);
    }

    static long hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) h = (h << 8) | (digest[i] & 0xff);
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JDK", e);
        }
    }
}
