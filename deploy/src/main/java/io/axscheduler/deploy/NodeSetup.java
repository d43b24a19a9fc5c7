package io.axscheduler.deploy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.StrictJson;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;

/** The node's clock, its JSON dialect and its schema check. */
@Configuration(proxyBeanMethods = false)
class NodeSetup {

    /** All time goes through this bean, so tests can set it; shared decisions use the database's clock instead. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * API.md: instants are ISO-8601 UTC with milliseconds, always three digits, written by {@link IsoInstants} (the
     * mapper is also Axon's: event payloads carry them too). A serializer of its own rather than a subclass of
     * Jackson's {@code InstantSerializer}: that one makes a copy of itself per property, and the copies format with the
     * base class's {@code DateTimeFormatter}, whatever the subclass overrides.
     */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer instantsWithMilliseconds() {
        SimpleModule module = new SimpleModule("ax-instants");
        module.addSerializer(Instant.class, new IsoInstantSerializer());
        module.addDeserializer(Instant.class, new IsoInstantDeserializer());
        return builder -> builder.modulesToInstall(modules -> modules.add(module));
    }

    static final class IsoInstantSerializer extends StdSerializer<Instant> {

        IsoInstantSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeString(IsoInstants.millis(value));
        }
    }

    /**
     * Reads what {@link IsoInstantSerializer} writes by {@link IsoInstants#parse} (events are read back by every tracking
     * processor and every aggregate load); anything else, a number, an offset or what that refuses, goes to Jackson's
     * own, which answers it as before.
     */
    static final class IsoInstantDeserializer extends StdDeserializer<Instant> {

        IsoInstantDeserializer() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.hasToken(JsonToken.VALUE_STRING)) {
                String text = parser.getText();
                if (text.endsWith("Z")) {
                    try {
                        return IsoInstants.parse(text);
                    } catch (DateTimeParseException e) {
                        // Jackson's own answers it below, with its message
                    }
                }
            }
            return InstantDeserializer.INSTANT.deserialize(parser, context);
        }
    }

    /**
     * Every request body is read by the one strict policy ({@link StrictJson}): trailing data, a field twice, an
     * unknown field of a typed body, a fraction or a string for an integer, or nesting deeper than 64 are refused with
     * 400 naming the field (see {@link ProblemHandlers}). Replaces Spring Boot's converter, which reads leniently; the
     * shared mapper, which reads what the node stored itself, keeps its defaults.
     */
    @Bean
    MappingJackson2HttpMessageConverter strictJsonBodies(ObjectMapper shared) {
        return new MappingJackson2HttpMessageConverter(StrictJson.of(shared));
    }

    /** Before anything is written: sessions that number rows in steps of one ({@link SessionSettings}), then the schema. */
    @Bean
    FlywayMigrationStrategy refuseNewerSchema() {
        return flyway -> {
            SessionSettings.check(flyway.getConfiguration().getDataSource());
            SchemaGuard.migrate(flyway);
        };
    }
}
