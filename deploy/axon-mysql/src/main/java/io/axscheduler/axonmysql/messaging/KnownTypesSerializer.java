package io.axscheduler.axonmysql.messaging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.axonframework.serialization.json.JacksonSerializer;

/**
 * Axon's Jackson serializer, which finds the class of a serialized type once per type name instead of on every
 * deserialization. Axon's asks Jackson's type factory, which loads the class by name through the class loader each
 * time: for every event the reader reads back (its payload and metadata types) and every payload and metadata each
 * processor deserializes. A name no class answers to is left to Axon's own memory of unknown names.
 */
public final class KnownTypesSerializer extends JacksonSerializer {

    private final Map<String, Class<?>> known = new ConcurrentHashMap<>();

    public KnownTypesSerializer(JacksonSerializer.Builder builder) {
        super(builder);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class classForType(SerializedType type) {
        Class<?> found = known.get(type.getName());
        if (found != null) return found;
        found = super.classForType(type);
        if (found != UnknownSerializedType.class) known.put(type.getName(), found);
        return found;
    }
}
