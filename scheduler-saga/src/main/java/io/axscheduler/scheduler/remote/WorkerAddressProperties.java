package io.axscheduler.scheduler.remote;

import io.axscheduler.scheduler.net.AddressPolicy;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where remote workers may live, under {@code ax.workers}.
 *
 * @param allowedAddresses host names, {@code *.domain} and CIDR ranges (comma-separated in one setting); empty admits
 *                         no worker
 */
@ConfigurationProperties("ax.workers")
public record WorkerAddressProperties(@DefaultValue List<String> allowedAddresses) {

    public WorkerAddressProperties {
        allowedAddresses = allowedAddresses == null ? List.of() : List.copyOf(allowedAddresses);
        // read at binding, so a bad entry stops the start with the setting named, not a bean's stack trace
        AddressPolicy.of(WorkerAddresses.SETTING, allowedAddresses);
    }
}
