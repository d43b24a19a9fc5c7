package io.axscheduler.command;

import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.RefusedOnCachedState;
import io.axscheduler.api.problem.Unchanged;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.Registration;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Behind a load balancer the node that made a job is seldom the one that runs it: its cache still holds the job as
 * made, waiting, while another node claims, starts and ends it. A command this node then decides on the cached state
 * and accepts is caught by the event store's unique key (its event takes a sequence number already used); one it
 * refuses appended nothing to be caught, so a run deadline firing here was refused as "not running" and the attempt
 * ran on past its timeout, and an operator's retry here was a 409. Such a refusal, of an aggregate this node has
 * cached, is thrown as {@link RefusedOnCachedState}: the unit of work's rollback drops the entry, and the senders
 * ({@code OperatorCommands}, {@code SchedulerCommands}) send the command again, decided on the store's state.
 * Refusals of aggregates not cached here, and accepted commands, cost nothing more. A command that would change
 * nothing ({@link Unchanged}: pause a paused schedule) is the same question: on a cached state it is decided again
 * (the state may be stale: another node resumed it), on the store's it is done.
 */
@Configuration(proxyBeanMethods = false)
class CachedStateRefusals {

    @Bean
    Registration refusalsOnCachedState(
            CommandBus commandBus,
            @Qualifier(AggregateCaches.JOBS) CommittedOnlyCache jobs,
            @Qualifier(AggregateCaches.SCHEDULES) CommittedOnlyCache schedules) {
        CommandTargetResolver targets =
                AnnotationCommandTargetResolver.builder().build();
        return commandBus.registerHandlerInterceptor((unit, chain) -> {
            try {
                return chain.proceed();
            } catch (RefusedOnCachedState refused) {
                throw refused;
            } catch (IllegalTransitionException refused) {
                String id = target(targets, unit.getMessage());
                if (id != null && (jobs.containsKey(id) || schedules.containsKey(id)))
                    throw new RefusedOnCachedState(refused);
                if (refused instanceof Unchanged) return null;
                throw refused;
            }
        });
    }

    /** The aggregate a command targets, or null for one that names none (a creation, a batch). */
    private static String target(CommandTargetResolver targets, CommandMessage<?> command) {
        try {
            return targets.resolveTarget(command).getIdentifier();
        } catch (IllegalArgumentException none) {
            return null;
        }
    }
}
