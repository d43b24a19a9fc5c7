package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.StartJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;

/** Commands of remote attempts on a real Axon command bus whose handlers play the job aggregate's answers. */
class WorkerCommandsTest {

    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final List<String> handled = new ArrayList<>();
    private final WorkerCommands commands = new WorkerCommands(
            new SchedulerCommands(
                    DefaultCommandGateway.builder().commandBus(bus).build()),
            new NodeProperties("n1"));

    @Test
    void a_start_that_meets_another_nodes_write_is_decided_again_on_the_job_as_it_stands() {
        // the callback on another node started and ended the attempt while this node's StartJob was appending
        bus.subscribe(StartJob.class.getName(), m -> {
            handled.add("start");
            if (handled.size() == 1) throw new ConcurrencyException("sequence number 2 is taken");
            throw new IllegalTransitionException("job j1 is SUCCEEDED and cannot move to RUNNING");
        });
        assertThat(commands.start("j1", 1, "w1")).isFalse();
        assertThat(handled).containsExactly("start", "start");
    }

    @Test
    void an_outcome_that_meets_another_nodes_write_is_recorded_once_decided_again() {
        bus.subscribe(SucceedJob.class.getName(), m -> {
            handled.add("succeed");
            if (handled.size() == 1) throw new ConcurrencyException("sequence number 2 is taken");
            return null;
        });
        assertThat(commands.finish("j1", 1, "w1", new SucceedJob("j1", 1, null, 5), Caller.SCHEDULER))
                .isTrue();
        assertThat(handled).containsExactly("succeed", "succeed");
    }
}
