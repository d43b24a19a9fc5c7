package io.axscheduler.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * The one parsing policy for every JSON body the node receives (HTTP requests, worker registrations and callbacks):
 * one document and nothing after it, no field twice, no field the message does not know, integers only where an
 * integer is expected (no {@code 1.5}, no {@code "5"}), and at most {@link #MAX_NESTING} levels of objects and arrays.
 * What the node stores and reads back itself keeps Jackson's defaults: an accepted body, wrapped in an event, nests
 * deeper than the body did.
 */
public final class StrictJson {

    /** Objects and arrays nested in one request body, the body itself counting as one. */
    public static final int MAX_NESTING = 64;

    private StrictJson() {}

    /** A copy of {@code shared} (its modules and formats) that reads by this policy. */
    public static ObjectMapper of(ObjectMapper shared) {
        ObjectMapper strict = shared.copy();
        strict.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING)
                        .maxNumberLength(100)
                        .build());
        strict.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        strict.disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION.mappedFeature());
        strict.enable(
                DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
        strict.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        strict.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        strict.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        return strict;
    }
}
