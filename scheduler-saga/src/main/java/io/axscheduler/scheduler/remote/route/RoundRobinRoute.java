package io.axscheduler.scheduler.remote.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ROUND_ROBIN}: each job of a lane starts one worker further along. The turn is kept per node: with several
 * nodes each spreads its own claims evenly, so the total is even too.
 */
public final class RoundRobinRoute implements WorkerRoute {

    /** Bounded by the number of lanes (job type × app), which registrations bound. */
    private final Map<String, AtomicLong> turns = new ConcurrentHashMap<>();

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        long turn = turns.computeIfAbsent(request.lane(), l -> new AtomicLong()).getAndIncrement();
        int start = (int) Math.floorMod(turn, (long) workers.size());
        List<Candidate> ordered = new ArrayList<>(workers.size());
        for (int i = 0; i < workers.size(); i++) {
            ordered.add(workers.get((start + i) % workers.size()));
        }
        return ordered;
    }
}
