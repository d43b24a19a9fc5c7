package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.scheduler.remote.CallbackVerifier.Verdict;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class CallbackVerifierTest {

    private static final String SECRET = "0123456789abcdef";
    private static final String BODY = "{\"workerId\":\"w1\",\"jobId\":\"j1\",\"attempt\":1,\"succeeded\":true}";
    private static final long NOW = 1_800_000_000_000L;

    private final CallbackVerifier verifier =
            new CallbackVerifier(60_000, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));

    @Test
    void a_callback_signed_with_the_workers_secret_over_timestamp_and_body_is_valid() {
        String signature = CallbackSignature.sign(SECRET, NOW - 1000, BODY);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW - 1000), signature, BODY))
                .isEqualTo(Verdict.VALID);
    }

    @Test
    void the_signature_is_hex_hmac_sha256_of_timestamp_dot_body() {
        // reference value computed independently: echo -n '1700000000000.hello' | openssl dgst -sha256 -hmac key
        assertThat(CallbackSignature.sign("key", 1_700_000_000_000L, "hello"))
                .isEqualTo("cd61e22295aa6acf7fe4b86d3a490cdcfda2a09ffd8df6e7488ddaf6c761bfc2");
    }

    @Test
    void missing_headers_are_unsigned() {
        assertThat(verifier.verify(SECRET, null, "abc", BODY)).isEqualTo(Verdict.UNSIGNED);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), null, BODY)).isEqualTo(Verdict.UNSIGNED);
        assertThat(verifier.verify(SECRET, "", "", BODY)).isEqualTo(Verdict.UNSIGNED);
    }

    @Test
    void a_signature_made_with_another_secret_is_bad() {
        String signature = CallbackSignature.sign("another-secret", NOW, BODY);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), signature, BODY))
                .isEqualTo(Verdict.BAD_SIGNATURE);
    }

    @Test
    void a_changed_body_or_timestamp_breaks_the_signature() {
        String signature = CallbackSignature.sign(SECRET, NOW, BODY);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), signature, BODY.replace("true", "false")))
                .isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW + 1), signature, BODY))
                .isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(verifier.verify(SECRET, "not-a-number", signature, BODY)).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(verifier.verify(null, String.valueOf(NOW), signature, BODY)).isEqualTo(Verdict.BAD_SIGNATURE);
    }

    @Test
    void a_timestamp_outside_the_window_either_way_is_stale_even_when_well_signed() {
        long old = NOW - 60_001;
        long future = NOW + 60_001;
        assertThat(verifier.verify(SECRET, String.valueOf(old), CallbackSignature.sign(SECRET, old, BODY), BODY))
                .isEqualTo(Verdict.STALE);
        assertThat(verifier.verify(SECRET, String.valueOf(future), CallbackSignature.sign(SECRET, future, BODY), BODY))
                .isEqualTo(Verdict.STALE);
    }

    @Test
    void the_same_signed_callback_sent_twice_is_a_replay() {
        String signature = CallbackSignature.sign(SECRET, NOW, BODY);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), signature, BODY))
                .isEqualTo(Verdict.VALID);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), signature, BODY))
                .isEqualTo(Verdict.REPLAYED);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), signature.toUpperCase(), BODY))
                .isEqualTo(Verdict.REPLAYED);
    }

    @Test
    void the_same_body_signed_again_with_a_new_timestamp_is_not_a_replay() {
        verifier.verify(SECRET, String.valueOf(NOW - 5), CallbackSignature.sign(SECRET, NOW - 5, BODY), BODY);
        assertThat(verifier.verify(SECRET, String.valueOf(NOW), CallbackSignature.sign(SECRET, NOW, BODY), BODY))
                .isEqualTo(Verdict.VALID);
    }
}
