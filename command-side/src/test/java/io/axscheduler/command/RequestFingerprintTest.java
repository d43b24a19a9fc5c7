package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String of(String body) throws Exception {
        return RequestFingerprint.of(JSON.readTree(body), "jobKey");
    }

    @Test
    void the_same_body_in_another_field_order_at_any_depth_has_the_same_fingerprint() throws Exception {
        assertThat(
                        of(
                                "{\"jobKey\":\"k\",\"jobType\":\"noop\",\"params\":{\"a\":1,\"b\":{\"x\":[1,{\"p\":1,\"q\":2}]}}}"))
                .isEqualTo(
                        of(
                                "{\"params\":{\"b\":{\"x\":[1,{\"q\":2,\"p\":1}]},\"a\":1},\"jobType\":\"noop\",\"jobKey\":\"k\"}"))
                .hasSize(64)
                .matches("[0-9a-f]{64}");
    }

    @Test
    void the_key_is_left_out_and_every_other_difference_counts() throws Exception {
        String first = of("{\"jobKey\":\"k\",\"jobType\":\"noop\",\"priority\":1}");
        assertThat(of("{\"jobKey\":\"other\",\"jobType\":\"noop\",\"priority\":1}"))
                .isEqualTo(first);
        assertThat(of("{\"jobType\":\"noop\",\"priority\":1}")).isEqualTo(first);
        assertThat(of("{\"jobKey\":\"k\",\"jobType\":\"noop\",\"priority\":2}")).isNotEqualTo(first);
        assertThat(of("{\"jobKey\":\"k\",\"jobType\":\"noop\"}")).isNotEqualTo(first);
        assertThat(of("{\"jobKey\":\"k\",\"jobType\":\"noop\",\"priority\":\"1\"}"))
                .isNotEqualTo(first);
        // array order is part of the request; a nested field named as the key is not the key
        assertThat(of("{\"jobType\":\"noop\",\"params\":{\"l\":[1,2]}}"))
                .isNotEqualTo(of("{\"jobType\":\"noop\",\"params\":{\"l\":[2,1]}}"));
        assertThat(of("{\"jobType\":\"noop\",\"params\":{\"jobKey\":1}}"))
                .isNotEqualTo(of("{\"jobType\":\"noop\",\"params\":{\"jobKey\":2}}"));
    }

    @Test
    void the_body_it_is_given_is_left_as_it_was() throws Exception {
        JsonNode body = JSON.readTree("{\"jobKey\":\"k\",\"jobType\":\"noop\"}");
        RequestFingerprint.of(body, "jobKey");
        assertThat(body.path("jobKey").asText()).isEqualTo("k");
        assertThat(RequestFingerprint.bytes(RequestFingerprint.of(body, "jobKey")))
                .hasSize(32);
        assertThat(RequestFingerprint.bytes(null)).isNull();
    }
}
