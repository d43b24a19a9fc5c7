package io.axscheduler.scheduler.net;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address range such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a range of one. */
public record Cidr(byte[] network, int prefix, String text) {

    public static Cidr parse(String text) {
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        InetAddress parsed = AddressPolicy.literal(address)
                .orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not an IP address or CIDR range"));
        byte[] bytes = parsed.getAddress();
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(trimmed.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no valid prefix length");
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
            throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0.." + bytes.length * 8);
        }
        return new Cidr(bytes, prefix, trimmed);
    }

    static Cidr of(String text) {
        return parse(text);
    }

    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) return false;
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (bytes[i] != network[i]) return false;
        }
        int rest = prefix % 8;
        if (rest == 0) return true;
        int mask = (0xff << (8 - rest)) & 0xff;
        return (bytes[full] & mask) == (network[full] & mask);
    }

    static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
