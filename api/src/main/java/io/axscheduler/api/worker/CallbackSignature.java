package io.axscheduler.api.worker;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The callback signature both ends compute: hex HMAC-SHA256 of {@code timestamp + "." + body} with the worker's
 * secret. The timestamp is inside the MAC so an old callback cannot be replayed with a fresh timestamp.
 */
public final class CallbackSignature {

    public static final String TIMESTAMP_HEADER = "X-Ax-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Ax-Signature";
    private static final String ALGORITHM = "HmacSHA256";

    private CallbackSignature() {}

    public static String sign(String secret, long timestampMs, String body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return HexFormat.of().formatHex(mac.doFinal((timestampMs + "." + body).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Compares in constant time, so the time a mismatch takes does not tell how many leading characters matched. */
    public static boolean matches(String secret, long timestampMs, String body, String signature) {
        if (signature == null) return false;
        byte[] expected = sign(secret, timestampMs, body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signature.toLowerCase().getBytes(StandardCharsets.US_ASCII));
    }
}
