package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.job.ClaimJob;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.FireSchedule;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Instant;
import java.util.List;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.junit.jupiter.api.Test;

/** {@link CommandTargets} finds what Axon's {@link AnnotationCommandTargetResolver} finds, and fails where it fails. */
class CommandTargetsTest {

    private final CommandTargetResolver axons =
            AnnotationCommandTargetResolver.builder().build();
    private final CommandTargetResolver ours = new CommandTargets();

    record OnComponent(@TargetAggregateIdentifier String id, String other) {}

    record Versioned(
            @TargetAggregateIdentifier String id,
            @TargetAggregateVersion Long version) {}

    record VersionAsText(
            @TargetAggregateIdentifier String id,
            @TargetAggregateVersion String version) {}

    static class OnField {
        @TargetAggregateIdentifier
        private final String id;

        OnField(String id) {
            this.id = id;
        }
    }

    static class OnMethod {
        @TargetAggregateIdentifier
        String target() {
            return "from-method";
        }
    }

    static class Inherited extends OnField {
        Inherited(String id) {
            super(id);
        }
    }

    @Retention(RetentionPolicy.RUNTIME)
    @TargetAggregateIdentifier
    @interface MetaTarget {}

    record MetaAnnotated(@MetaTarget String id) {}

    record NoTarget(String id) {}

    @Test
    void resolves_what_axon_resolves() {
        List<Object> commands = List.of(
                new OnComponent("a", "b"),
                new Versioned("v", 7L),
                new Versioned("v", null),
                new VersionAsText("t", "12"),
                new OnField("f"),
                new OnMethod(),
                new Inherited("i"),
                new MetaAnnotated("m"),
                new ClaimJob("job-1", "node-1", Instant.EPOCH),
                new FireSchedule("schedule-1", Instant.EPOCH, FireKind.SCHEDULED, "job-2", null));
        for (Object payload : commands) {
            for (int twice = 0; twice < 2; twice++) { // the second read comes from what the first one found
                var command = GenericCommandMessage.asCommandMessage(payload);
                assertThat(ours.resolveTarget(command))
                        .as(payload.getClass().getSimpleName())
                        .isEqualTo(axons.resolveTarget(command));
            }
        }
        assertThat(ours.resolveTarget(GenericCommandMessage.asCommandMessage(new Versioned("v", 7L)))
                        .getVersion())
                .isEqualTo(7L);
        assertThat(ours.resolveTarget(GenericCommandMessage.asCommandMessage(new OnMethod()))
                        .getIdentifier())
                .isEqualTo("from-method");
    }

    @Test
    void refuses_what_axon_refuses() {
        for (Object payload :
                List.of(new NoTarget("x"), new OnComponent(null, "b"), new VersionAsText("t", "twelve"))) {
            var command = GenericCommandMessage.asCommandMessage(payload);
            Throwable expected = org.assertj.core.api.Assertions.catchThrowable(() -> axons.resolveTarget(command));
            assertThat(expected).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ours.resolveTarget(command))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(expected.getMessage());
        }
    }
}
