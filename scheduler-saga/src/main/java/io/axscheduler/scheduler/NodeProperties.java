package io.axscheduler.scheduler;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who this node is, under {@code ax.node}.
 *
 * @param id the node's name in every event it writes (metadata {@code node}), in its claims and in its metrics;
 *           {@code application.yml} makes it {@code <HOSTNAME>-<port>} unless {@code AX_NODE_ID} names it
 */
@ConfigurationProperties("ax.node")
public record NodeProperties(String id) {

    public NodeProperties {
        if (id == null || id.isBlank()) throw new IllegalArgumentException("ax.node.id must not be blank");
    }
}
