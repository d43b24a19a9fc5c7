package io.axscheduler.axonmysql;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The engine tweaks of Axon on MySQL/MariaDB, each of which can be switched off ({@code ax.axon.*}); off, Axon's own
 * behaviour is used. docs/architecture.md says why each exists, docs/benchmark.md what each was measured to gain.
 *
 * @param multiRowAppends a unit of work's events go in multi-row INSERTs instead of one INSERT per event
 * @param readsOutsideTransactions the event store's reads outside a transaction open none
 * @param readerWakeMs the embedded store's reader wakes once per this many ms of commits (0: once per commit)
 * @param countedWorkQueues pooled processors' work packages get queues that count themselves
 * @param metadataReader Axon's Jackson serializers read metadata with one deserializer lookup
 * @param sagaBatchLookups a saga processor's batch answers its association lookups with one query
 * @param sagaSegmentRouting a saga's events go to the one segment their association value hashes to
 * @param typeMatchedHandlers subscribing processors know from a map which payload types a group has no handler for
 * @param cachedCommandTargets a command's target aggregate is read through members looked up once per command class
 * @param correlationInOne one correlation data provider answers once per message for the origin ids, actor and node
 *     (read by the node's own configuration, which declares the providers)
 * @param knownTypes the serializer finds the class of a serialized type once per type name (read by a condition on
 *     the serializer bean, which must be decided before the properties are bound)
 * @param oneGroupHandlers a processor with one handler group hands it an event the processor accepted without
 *     asking the group again
 * @param plainResults what a command or event handler returns reaches Axon as a result message made without
 *     correlation data, which nothing reads
 * @param readerBelowOwnAppends the event reader stops below the indexes this node's open appends hold, instead of
 *     reading past them and carrying them as gaps in every later token (needs {@code multiRowAppends})
 */
@ConfigurationProperties("ax.axon")
public record AxonMysqlProperties(
        @DefaultValue("true") boolean multiRowAppends,
        @DefaultValue("true") boolean readsOutsideTransactions,
        @DefaultValue("20") long readerWakeMs,
        @DefaultValue("true") boolean countedWorkQueues,
        @DefaultValue("true") boolean metadataReader,
        @DefaultValue("true") boolean sagaBatchLookups,
        @DefaultValue("true") boolean sagaSegmentRouting,
        @DefaultValue("true") boolean typeMatchedHandlers,
        @DefaultValue("true") boolean cachedCommandTargets,
        @DefaultValue("true") boolean correlationInOne,
        @DefaultValue("true") boolean readerBelowOwnAppends,
        @DefaultValue("true") boolean knownTypes,
        @DefaultValue("true") boolean oneGroupHandlers,
        @DefaultValue("true") boolean plainResults) {

    public AxonMysqlProperties {
        if (readerWakeMs < 0 || readerWakeMs > 1000)
            throw new IllegalArgumentException("ax.axon.reader-wake-ms must be 0..1000, was " + readerWakeMs);
    }

    /** The tweaks as a node runs by default. */
    public static AxonMysqlProperties defaults() {
        return new AxonMysqlProperties(
                true, true, 20, true, true, true, true, true, true, true, true, true, true, true);
    }
}
