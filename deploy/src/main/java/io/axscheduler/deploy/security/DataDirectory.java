package io.axscheduler.deploy.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** {@code ax.data-dir} (AX_DATA_DIR): where the embedded database and {@code initial-admin.txt} live. */
@ConfigurationProperties("ax")
public record DataDirectory(@DefaultValue("data") String dataDir) {}
