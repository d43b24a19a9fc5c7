package io.axscheduler.api;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Questions about an exception and its causes, however Spring, Axon or a driver wrapped the one that matters. The
 * chain is walked outermost first and ends at a cause seen before: a cycle (which {@link Throwable#initCause} allows
 * when it is longer than one) is walked once instead of forever.
 */
public final class Causes {

    private Causes() {}

    /** Whether {@code e} or any of its causes passes {@code test}. */
    public static boolean any(Throwable e, Predicate<Throwable> test) {
        return find(e, Throwable.class, test) != null;
    }

    /** Whether {@code e} or any of its causes is a {@code type}. */
    public static boolean any(Throwable e, Class<? extends Throwable> type) {
        return find(e, type) != null;
    }

    /** The outermost of {@code e} and its causes that is a {@code type}, or null. */
    public static <T extends Throwable> T find(Throwable e, Class<T> type) {
        return find(e, type, t -> true);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type, Predicate<? super T> test) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            if (type.isInstance(t) && test.test(type.cast(t))) return type.cast(t);
        }
        return null;
    }
}
