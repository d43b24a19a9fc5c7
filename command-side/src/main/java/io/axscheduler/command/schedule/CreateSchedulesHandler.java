package io.axscheduler.command.schedule;

import io.axscheduler.api.schedule.CreateSchedule;
import io.axscheduler.api.schedule.CreateSchedules;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.modelling.command.Repository;
import org.springframework.stereotype.Component;

/**
 * Creates the schedules of a {@link CreateSchedules} in the command's own unit of work: each is a new aggregate made
 * through the repository, as {@code CreateSchedule} makes one, without a dispatch, an interceptor chain and a nested
 * unit of work each. Their events carry the batch command's metadata (actor, node, correlation) and are appended
 * together when the unit of work commits; the new aggregates go into the schedule cache as it does.
 */
@Component
class CreateSchedulesHandler {

    private final Repository<Schedule> schedules;

    CreateSchedulesHandler(Repository<Schedule> schedules) {
        this.schedules = schedules;
    }

    @CommandHandler
    void handle(CreateSchedules batch) throws Exception {
        for (CreateSchedule create : batch.schedules()) {
            schedules.newInstance(() -> new Schedule(create));
        }
    }
}
