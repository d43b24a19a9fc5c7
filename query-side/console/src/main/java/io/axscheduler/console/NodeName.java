package io.axscheduler.console;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** This node's name, {@code ax.node.id}: the key of its row in the node list. */
@ConfigurationProperties("ax.node")
record NodeName(@DefaultValue("node") String id) {

    NodeName {
        if (id == null || id.isBlank()) throw new IllegalArgumentException("ax.node.id must not be blank");
    }
}
