package io.axscheduler.scheduler.remote.route;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/** {@code RANDOM}: a uniformly random worker first, the rest shuffled behind it. */
public final class RandomRoute implements WorkerRoute {

    private final Supplier<Random> random;

    public RandomRoute(Supplier<Random> random) {
        this.random = random;
    }

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        List<Candidate> shuffled = new ArrayList<>(workers);
        Collections.shuffle(shuffled, random.get());
        return shuffled;
    }
}
