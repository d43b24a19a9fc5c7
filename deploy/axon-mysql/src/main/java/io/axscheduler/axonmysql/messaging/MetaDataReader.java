package io.axscheduler.axonmysql.messaging;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.axonframework.messaging.MetaData;

/**
 * Reads a message's metadata as Axon's {@code MetaDataDeserializer} does — a JSON object into a map, that map as
 * {@link MetaData} — but finds the map's deserializer once, when Jackson sets this one up, instead of looking it up
 * and contextualizing it anew for every message: the saga's processor reads the metadata of every event it handles
 * (its correlation data comes from there), and that lookup was half the cost of reading it.
 */
public final class MetaDataReader extends JsonDeserializer<MetaData> implements ResolvableDeserializer {

    /** Set in {@link #resolve}, before Jackson hands this reader to any thread; volatile all the same. */
    private volatile JsonDeserializer<Object> maps;

    /** A module that puts this reader before Axon's, once registered on a mapper after Axon's serializer was built. */
    public static SimpleModule module() {
        return new SimpleModule("ax-metadata-reader").addDeserializer(MetaData.class, new MetaDataReader());
    }

    /** Jackson keeps this reader once resolved, rather than resolving it again at every lookup. */
    @Override
    public boolean isCachable() {
        return true;
    }

    @Override
    public void resolve(DeserializationContext context) throws JsonMappingException {
        maps = context.findRootValueDeserializer(
                context.getTypeFactory().constructMapType(Map.class, String.class, Object.class));
    }

    @Override
    @SuppressWarnings("unchecked")
    public MetaData deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        return MetaData.from((Map<String, Object>) maps.deserialize(parser, context, new HashMap<>()));
    }

    @Override
    public Object deserializeWithType(JsonParser parser, DeserializationContext context, TypeDeserializer types)
            throws IOException {
        return types.deserializeTypedFromObject(parser, context);
    }
}
