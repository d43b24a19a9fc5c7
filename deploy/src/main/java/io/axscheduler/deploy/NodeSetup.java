package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.ser.InstantSerializer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The node's clock, its JSON dialect and its schema check. */
@Configuration(proxyBeanMethods = false)
class NodeSetup {

    /** All time goes through this bean, so tests can set it; shared decisions use the database's clock instead. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** API.md: instants are ISO-8601 UTC with milliseconds, always three digits. */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer instantsWithMilliseconds() {
        DateTimeFormatter millis =
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
        SimpleModule module = new SimpleModule("ax-instants");
        module.addSerializer(Instant.class, new InstantSerializer(InstantSerializer.INSTANCE, false, false, millis) {});
        return builder -> builder.modulesToInstall(modules -> modules.add(module));
    }

    @Bean
    FlywayMigrationStrategy refuseNewerSchema() {
        return SchemaGuard::migrate;
    }
}
