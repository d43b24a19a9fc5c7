package io.axscheduler.axonmysql.messaging;

import io.axscheduler.api.TimeOrderedIds;
import org.axonframework.common.IdentifierFactory;

/**
 * Axon's identifiers of messages and events, time-ordered like the node's job and schedule ids (see
 * {@link TimeOrderedIds}): the event store's unique eventIdentifier key then grows at its right edge. Axon finds it
 * through {@code META-INF/services/org.axonframework.common.IdentifierFactory}. Message ids are only ever compared for
 * equality, so their ordering changes nothing else.
 */
public final class TimeOrderedIdentifiers extends IdentifierFactory {

    @Override
    public String generateIdentifier() {
        return TimeOrderedIds.next(System.currentTimeMillis());
    }
}
