package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.job.ClaimJob;
import io.axscheduler.api.job.SucceedJob;
import java.time.Instant;
import java.util.List;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

/** Whatever the command, the cached resolver answers (or refuses) exactly as Axon's annotation resolver does. */
class CachedCommandTargetsTest {

    private final CommandTargetResolver axon =
            AnnotationCommandTargetResolver.builder().build();
    private final CommandTargetResolver cached = new CachedCommandTargets();

    record OnComponent(@TargetAggregateIdentifier String id, String other) {}

    static class Base {
        @TargetAggregateIdentifier
        private final Object id;

        @TargetAggregateVersion
        private final String version;

        Base(Object id, String version) {
            this.id = id;
            this.version = version;
        }
    }

    /** Fields of a superclass, a version given as text. */
    static class InSuperclass extends Base {
        InSuperclass(Object id, String version) {
            super(id, version);
        }
    }

    /** A method comes before a field, as in Axon's walk. */
    static class MethodFirst {
        @TargetAggregateIdentifier
        private final String field = "from-field";

        @TargetAggregateIdentifier
        public String id() {
            return "from-method";
        }

        @TargetAggregateVersion
        public long version() {
            return 7;
        }
    }

    static class Throwing {
        @TargetAggregateIdentifier
        public String id() {
            throw new IllegalStateException("no id");
        }
    }

    record NoTarget(String id) {}

    @Test
    void answers_as_axon_for_each_kind_of_command_and_for_each_command_not_the_first_of_its_class() {
        List<Object> commands = List.of(
                new OnComponent("a", "x"),
                new OnComponent("b", "y"),
                new InSuperclass(42, "3"),
                new InSuperclass("s", null),
                new MethodFirst(),
                new ClaimJob("job-1", "node-a", Instant.EPOCH),
                new ClaimJob("job-2", "node-b", Instant.EPOCH),
                new SucceedJob("job-3", 1, "done", 5));
        for (Object command : commands) {
            VersionedAggregateIdentifier expected = axon.resolveTarget(GenericCommandMessage.asCommandMessage(command));
            VersionedAggregateIdentifier actual = cached.resolveTarget(GenericCommandMessage.asCommandMessage(command));
            assertThat(actual.getIdentifierValue()).as(command.toString()).isEqualTo(expected.getIdentifierValue());
            assertThat(actual.getVersion()).as(command.toString()).isEqualTo(expected.getVersion());
        }
        assertThat(cached.resolveTarget(GenericCommandMessage.asCommandMessage(new MethodFirst()))
                        .getIdentifier())
                .isEqualTo("from-method");
        assertThat(cached.resolveTarget(GenericCommandMessage.asCommandMessage(new InSuperclass(1, "12")))
                        .getVersion())
                .isEqualTo(12L);
    }

    @Test
    void refuses_as_axon_does() {
        for (Object command :
                List.of(new NoTarget("x"), new OnComponent(null, "x"), new Throwing(), new InSuperclass(1, "v1"))) {
            Class<? extends Throwable> axonRefusal = refusal(axon, command).getClass();
            assertThatThrownBy(() -> cached.resolveTarget(GenericCommandMessage.asCommandMessage(command)))
                    .as(command.getClass().getSimpleName())
                    .isInstanceOf(axonRefusal)
                    .hasMessage(refusal(axon, command).getMessage());
        }
    }

    private static Throwable refusal(CommandTargetResolver resolver, Object command) {
        try {
            resolver.resolveTarget(GenericCommandMessage.asCommandMessage(command));
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("no refusal for " + command);
    }
}
