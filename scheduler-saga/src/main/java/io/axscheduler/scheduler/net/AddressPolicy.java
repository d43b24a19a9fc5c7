package io.axscheduler.scheduler.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which URLs the scheduler may call on someone's behalf. A URL passes when its host is named by the setting (a host
 * name, {@code *.example.com}, or {@code *} for any name) or, for an IP address, lies in one of its CIDR ranges; and
 * when every address the host resolves to is public or lies in one of those CIDR ranges. Loopback, link-local (cloud
 * metadata), private, shared, reserved, multicast and the IPv6 forms that embed an IPv4 address are not public, so
 * reaching the scheduler's own network needs an explicit range. An IPv4 address written other than as four decimal
 * numbers ({@code 2130706433}, {@code 0177.0.0.1}, {@code 0x7f.1}) is refused: clients disagree on what it means.
 *
 * <p>The addresses are checked when the call is made, not when it is configured. {@link #resolveChecked} is the
 * resolution a connection uses ({@link PinnedHttp}): the host is looked up once, every address checked, and the
 * connection made to those addresses, so a name that answers differently a second time (DNS rebinding) gains nothing.
 */
public final class AddressPolicy {

    /** Thrown for a URL the policy refuses; the message says why and which setting would allow it. */
    public static final class Refused extends SecurityException {
        Refused(String message) {
            super(message);
        }
    }

    private static final Pattern HOST_PATTERN =
            Pattern.compile("\\*|(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern NUMERIC_HOST = Pattern.compile("(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?");
    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    /** Ranges that are not the public internet: the scheduler's own host and network, and reserved space. */
    static final List<Cidr> NOT_PUBLIC = List.of(
            Cidr.of("0.0.0.0/8"),
            Cidr.of("10.0.0.0/8"),
            Cidr.of("100.64.0.0/10"),
            Cidr.of("127.0.0.0/8"),
            Cidr.of("169.254.0.0/16"),
            Cidr.of("172.16.0.0/12"),
            Cidr.of("192.0.0.0/24"),
            Cidr.of("192.0.2.0/24"),
            Cidr.of("192.88.99.0/24"),
            Cidr.of("192.168.0.0/16"),
            Cidr.of("198.18.0.0/15"),
            Cidr.of("198.51.100.0/24"),
            Cidr.of("203.0.113.0/24"),
            Cidr.of("224.0.0.0/4"),
            Cidr.of("240.0.0.0/4"),
            // IPv4-compatible; an IPv4-mapped address (::ffff:a.b.c.d) is parsed as the IPv4 address itself
            Cidr.of("::/96"),
            Cidr.of("64:ff9b::/96"),
            Cidr.of("64:ff9b:1::/48"),
            Cidr.of("100::/64"),
            Cidr.of("2001::/32"),
            Cidr.of("2001:db8::/32"),
            Cidr.of("2002::/16"),
            Cidr.of("fc00::/7"),
            Cidr.of("fe80::/10"),
            Cidr.of("fec0::/10"),
            Cidr.of("ff00::/8"));

    private final String setting;
    private final List<String> hosts;
    private final List<Cidr> ranges;
    private final HostResolver resolver;

    private AddressPolicy(String setting, List<String> hosts, List<Cidr> ranges, HostResolver resolver) {
        this.setting = setting;
        this.hosts = hosts;
        this.ranges = ranges;
        this.resolver = resolver;
    }

    /** A policy from the entries of {@code setting}; an entry that is neither a host pattern nor a range fails. */
    public static AddressPolicy of(String setting, List<String> entries) {
        return of(setting, entries, HostResolver.SYSTEM);
    }

    public static AddressPolicy of(String setting, List<String> entries, HostResolver resolver) {
        List<String> hosts = new ArrayList<>();
        List<Cidr> ranges = new ArrayList<>();
        for (String raw : entries == null ? List.<String>of() : entries) {
            String entry = raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) continue;
            if (entry.contains("/") || literal(entry).isPresent()) {
                try {
                    ranges.add(Cidr.parse(entry));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(setting + ": " + e.getMessage());
                }
            } else if (HOST_PATTERN.matcher(entry).matches()
                    && !NUMERIC_HOST.matcher(entry).matches()) {
                hosts.add(entry);
            } else {
                throw new IllegalArgumentException(setting + ": '" + raw
                        + "' is neither a host name, *.domain, * nor an IP address or CIDR range");
            }
        }
        return new AddressPolicy(setting, List.copyOf(hosts), List.copyOf(ranges), resolver);
    }

    public boolean isEmpty() {
        return hosts.isEmpty() && ranges.isEmpty();
    }

    /**
     * The checks that need no DNS: scheme, user information, spelling, and whether the setting names the host or
     * its range. Returns the host as it is compared; throws {@link Refused}. For a submit, before any call is due.
     */
    public String checkName(URI url) {
        if (url.getScheme() == null
                || !("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))) {
            throw new Refused("only http and https URLs may be called");
        }
        if (url.getRawUserInfo() != null
                || url.getRawAuthority() != null && url.getRawAuthority().contains("@")) {
            throw new Refused("a URL must not carry user information");
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) throw new Refused("the URL has no host");
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        if (host.endsWith(".")) host = host.substring(0, host.length() - 1);
        Optional<InetAddress> literal = literal(host);
        if (literal.isEmpty() && NUMERIC_HOST.matcher(host).matches()) {
            throw new Refused("host " + host + " is an IPv4 address in an ambiguous spelling; write it as a.b.c.d");
        }
        if (literal.isEmpty() && host.contains(":")) throw new Refused("host " + host + " is not a valid address");
        if (literal.isPresent() ? !inRanges(literal.get()) : !namedHost(host)) {
            throw new Refused("host " + host + " is not allowed by " + setting + namedHint(literal.isEmpty()));
        }
        return host;
    }

    /**
     * Checks an http(s) URL and returns the addresses its host resolves to, or throws {@link Refused}; a host that
     * does not resolve throws {@link UnknownHostException}.
     */
    public List<InetAddress> check(URI url) throws UnknownHostException {
        return List.of(checkedAddresses(checkName(url)));
    }

    /**
     * The addresses of {@code host} (a name or an IP literal, as a connection names it), looked up once and each
     * checked as {@link #check} does, the name included; throws {@link Refused}. What a connection must use, so that
     * it goes to the addresses that were checked and to no other.
     */
    public InetAddress[] resolveChecked(String host) throws UnknownHostException {
        if (host == null || host.isEmpty()) throw new Refused("the URL has no host");
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) name = name.substring(1, name.length() - 1);
        if (name.endsWith(".")) name = name.substring(0, name.length() - 1);
        Optional<InetAddress> literal = literal(name);
        if (literal.isEmpty() && NUMERIC_HOST.matcher(name).matches()) {
            throw new Refused("host " + name + " is an IPv4 address in an ambiguous spelling; write it as a.b.c.d");
        }
        if (literal.isPresent() ? !inRanges(literal.get()) : !namedHost(name)) {
            throw new Refused("host " + name + " is not allowed by " + setting + namedHint(literal.isEmpty()));
        }
        return checkedAddresses(name);
    }

    /** A host name is allowed by a name in the list, never by an address range its addresses fall in: said so. */
    private static String namedHint(boolean named) {
        return named
                ? " (a host name is allowed only by its name in that list, not by an address range: list the name,"
                        + " or use the address)"
                : "";
    }

    private InetAddress[] checkedAddresses(String host) throws UnknownHostException {
        Optional<InetAddress> literal = literal(host);
        InetAddress[] addresses = literal.isPresent()
                ? new InetAddress[] {literal.get()}
                : resolver.resolve(host).clone();
        if (addresses.length == 0) throw new UnknownHostException(host);
        for (InetAddress address : addresses) {
            if (!isPublic(address) && !inRanges(address)) {
                throw new Refused("host " + host + " resolves to " + address.getHostAddress()
                        + ", which is not a public address; allow its range in " + setting + " to call it");
            }
        }
        return addresses;
    }

    private boolean namedHost(String host) {
        for (String pattern : hosts) {
            if (pattern.equals("*") || pattern.equals(host)) return true;
            if (pattern.startsWith("*.") && host.endsWith(pattern.substring(1))) return true;
        }
        return false;
    }

    private boolean inRanges(InetAddress address) {
        return ranges.stream().anyMatch(r -> r.contains(address));
    }

    static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress()
                || address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return false;
        }
        if (address.equals(Cidr.address(new byte[] {(byte) 255, (byte) 255, (byte) 255, (byte) 255}))) return false;
        return NOT_PUBLIC.stream().noneMatch(r -> r.contains(address));
    }

    /**
     * An IP address written as one: four decimal numbers, or IPv6 (an IPv4-mapped one becomes its IPv4 address).
     * Never a DNS lookup.
     */
    static Optional<InetAddress> literal(String text) {
        String host = text;
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        try {
            if (DOTTED_QUAD.matcher(host).matches()) return Optional.of(InetAddress.getByName(host));
            if (host.contains(":") && host.matches("[0-9a-f:.%a-z]+")) {
                // in brackets the JDK parses an IPv6 literal or fails; it never asks DNS
                int zone = host.indexOf('%');
                return Optional.of(InetAddress.getByName("[" + (zone < 0 ? host : host.substring(0, zone)) + "]"));
            }
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
