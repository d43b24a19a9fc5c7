package io.axscheduler.scheduler.remote;

import io.axscheduler.scheduler.net.AddressPolicy;
import io.axscheduler.scheduler.net.HostResolver;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Where workers may live: {@code ax.workers.allowed-addresses}, host names, {@code *.domain} and CIDR ranges, empty
 * by default (no remote workers until configured). A worker's address is a base URL: http(s), no user information,
 * nothing after the path, and a host the policy admits — checked at registration and again before every push, so a
 * name that later resolves elsewhere is not pushed to.
 */
@Component
public class WorkerAddresses {

    static final String SETTING = "ax.workers.allowed-addresses";

    private final AddressPolicy policy;

    @Autowired
    public WorkerAddresses(WorkerAddressProperties properties, ObjectProvider<HostResolver> resolvers) {
        this(AddressPolicy.of(
                SETTING, properties.allowedAddresses(), resolvers.getIfAvailable(() -> HostResolver.SYSTEM)));
    }

    WorkerAddresses(WorkerAddressProperties properties) {
        this(AddressPolicy.of(SETTING, properties.allowedAddresses()));
    }

    WorkerAddresses(AddressPolicy policy) {
        this.policy = policy;
    }

    /** The policy pushes connect under: each connection's addresses are checked as it is made. */
    public AddressPolicy policy() {
        return policy;
    }

    /** Why {@code address} may not be a worker's, or empty if it may. */
    public Optional<String> refusal(String address) {
        if (address == null || address.length() > 500) return Optional.of("must be an http(s) base URL");
        if (address.contains("?") || address.contains("#")) {
            return Optional.of("must not have a query or fragment: nothing after the path");
        }
        URI uri;
        try {
            uri = URI.create(address);
        } catch (IllegalArgumentException e) {
            return Optional.of("must be an http(s) base URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            return Optional.of("must be an http(s) base URL");
        }
        if (uri.getHost() == null) {
            // java.net.URI leaves the host out of an authority it cannot read as one: 127.1, a name with '_'
            return Optional.of(
                    uri.getRawAuthority() == null
                            ? "must be an http(s) base URL"
                            : "has no host Java can read in '" + uri.getRawAuthority() + "': write a host name, an IPv4"
                                    + " address as a.b.c.d or an IPv6 one in brackets");
        }
        if (uri.getRawUserInfo() != null) return Optional.of("must not carry user information");
        // URI takes any digits for a port; -1 is none given (the scheme's)
        if (uri.getPort() == 0 || uri.getPort() > 65_535) return Optional.of("port must be 1 to 65535");
        try {
            List<InetAddress> resolved = policy.check(uri);
            return resolved.isEmpty() ? Optional.of("does not resolve") : Optional.empty();
        } catch (AddressPolicy.Refused e) {
            return Optional.of(e.getMessage());
        } catch (UnknownHostException e) {
            return Optional.of("host does not resolve");
        }
    }
}
