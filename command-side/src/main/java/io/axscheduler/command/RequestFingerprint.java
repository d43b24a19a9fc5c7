package io.axscheduler.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What an idempotency key is compared with when it is sent again: the SHA-256 of the request body as sent, with its
 * key field left out and every object's fields in name order, so that the same body sent again (whatever order its
 * fields came in) has the same fingerprint and any other body another. Values are compared as written: a field left
 * out and the same field sent with its default are different requests.
 */
public final class RequestFingerprint {

    private RequestFingerprint() {}

    /** The fingerprint of {@code body} without its {@code keyField}, as 64 hexadecimal digits. */
    public static String of(JsonNode body, String keyField) {
        JsonNode canonical = sorted(body);
        if (canonical instanceof ObjectNode object) object.remove(keyField);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Whether a key's {@code stored} fingerprint and the one a request sent again carries ({@code hex}) name
     * different requests: false when either is not known (a key taken before fingerprints were kept, the scheduler's
     * own submits), which are never compared.
     */
    public static boolean differs(byte[] stored, String hex) {
        return stored != null && hex != null && !java.util.Arrays.equals(stored, bytes(hex));
    }

    /** {@code hex} as the 32 bytes a key table stores; null stays null. */
    public static byte[] bytes(String hex) {
        return hex == null ? null : HexFormat.of().parseHex(hex);
    }

    /** A copy of {@code node} whose objects list their fields in name order, at every depth. */
    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (String name : names) copy.set(name, sorted(node.get(name)));
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode(node.size());
            for (JsonNode item : node) copy.add(sorted(item));
            return copy;
        }
        return node;
    }
}
