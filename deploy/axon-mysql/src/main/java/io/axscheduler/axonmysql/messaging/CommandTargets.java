package io.axscheduler.axonmysql.messaging;

import static java.lang.String.format;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.ReflectionUtils;
import org.axonframework.common.annotation.AnnotationUtils;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;

/**
 * Finds the aggregate a command is for as Axon's {@link AnnotationCommandTargetResolver} does — the first method, else
 * the first field, of the command's class carrying {@code @TargetAggregateIdentifier} (and {@code
 * @TargetAggregateVersion}), meta-annotations included — but looks once per command class instead of once per command.
 * Axon's walks every method and field of the class and its supertypes, twice, on every command, a visible share of
 * the command path's CPU when schedules fire in bulk (docs/benchmark.md).
 */
public final class CommandTargets implements CommandTargetResolver {

    private final ClassValue<Accessors> accessors = new ClassValue<>() {
        @Override
        protected Accessors computeValue(Class<?> type) {
            return new Accessors(
                    Accessor.find(type, TargetAggregateIdentifier.class),
                    Accessor.find(type, TargetAggregateVersion.class));
        }
    };

    @Override
    public VersionedAggregateIdentifier resolveTarget(CommandMessage<?> command) {
        Accessors target = accessors.get(command.getPayloadType());
        Object payload = command.getPayload();
        Object identifier;
        Long version;
        try {
            identifier = target.identifier().read(payload);
            version = asLong(target.version().read(payload));
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(
                    "An exception occurred while extracting aggregate information form a command", e);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(
                    "The current security context does not allow extraction of aggregate"
                            + " information from the given command.",
                    e);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The value provided for the version is not a number.", e);
        }
        if (identifier == null) {
            throw new IllegalArgumentException(format(
                    "Invalid command. It does not identify the target aggregate. Make sure"
                            + " at least one of the fields or methods in the [%s] class contains the @TargetAggregateIdentifier"
                            + " annotation and that it returns a non-null value.",
                    command.getPayloadType().getSimpleName()));
        }
        return new VersionedAggregateIdentifier(identifier, version);
    }

    private static Long asLong(Object value) {
        if (value == null) return null;
        if (value instanceof Number number) return number.longValue();
        return Long.parseLong(value.toString());
    }

    private record Accessors(Accessor identifier, Accessor version) {}

    /** Reads one annotated member of a command: the first such method, else the first such field, else null. */
    @FunctionalInterface
    private interface Accessor {

        Object read(Object payload) throws InvocationTargetException, IllegalAccessException;

        static Accessor find(Class<?> type, Class<? extends Annotation> annotation) {
            for (Method m : ReflectionUtils.methodsOf(type)) {
                if (AnnotationUtils.isAnnotationPresent(m, annotation)) {
                    Method method = ReflectionUtils.ensureAccessible(m);
                    return method::invoke;
                }
            }
            for (Field f : ReflectionUtils.fieldsOf(type)) {
                if (AnnotationUtils.isAnnotationPresent(f, annotation)) {
                    return payload -> ReflectionUtils.getFieldValue(f, payload);
                }
            }
            return payload -> null;
        }
    }
}
