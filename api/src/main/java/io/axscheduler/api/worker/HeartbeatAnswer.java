package io.axscheduler.api.worker;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The scheduler's answer to a heartbeat: the runs the worker holds that it should stop (at most
 * {@link #MAX_STOPS}, empty when there are none). Fields a later scheduler adds are ignored; an earlier one
 * answered with {@code workerId} alone.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeartbeatAnswer(String workerId, List<StopRun> stop) {

    /** An answer names at most this many runs; the next heartbeat names the rest. */
    public static final int MAX_STOPS = 256;

    public HeartbeatAnswer {
        stop = stop == null ? List.of() : List.copyOf(stop);
    }
}
