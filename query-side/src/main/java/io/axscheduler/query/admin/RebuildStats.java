package io.axscheduler.query.admin;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.query.stats.StatsProjection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.springframework.stereotype.Component;

/**
 * Replays the whole event store into the console's statistics: stops this node's console-stats processor, resets its
 * tokens to the start of the store (the projection's reset handler empties its tables) and starts it again; the
 * replay then runs in the background, and the overview fills up as it goes. Another node holding one of the
 * processor's segments makes it a 409: stop that node's processor first (or the node), as the tokens it holds
 * cannot be reset under it.
 */
@Component
public class RebuildStats implements ProjectionRebuild {

    private static final long STOP_WAIT_S = 30;

    private final EventProcessingConfiguration processing;

    public RebuildStats(EventProcessingConfiguration processing) {
        this.processing = processing;
    }

    @Override
    public String name() {
        return StatsProjection.PROCESSING_GROUP;
    }

    @Override
    public Map<String, Object> rebuild() {
        StreamingEventProcessor processor = processing
                .eventProcessor(StatsProjection.PROCESSING_GROUP, StreamingEventProcessor.class)
                .orElseThrow(() -> new IllegalStateException("no console-stats processor on this node"));
        try {
            processor.shutdownAsync().get(STOP_WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("console-stats did not stop within " + STOP_WAIT_S + " s", e);
        }
        try {
            processor.resetTokens();
        } catch (UnableToClaimTokenException e) {
            throw new IllegalTransitionException(
                    "another node holds a segment of console-stats; stop that node, or send the rebuild there: "
                            + e.getMessage());
        } finally {
            processor.start();
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("projection", name());
        answer.put("replay", "started");
        return answer;
    }
}
