package io.axscheduler.axonmysql.saga;

import io.axscheduler.axonmysql.processing.ProcessorBatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.AssociationValues;
import org.axonframework.modelling.saga.SagaStorageException;
import org.axonframework.modelling.saga.metamodel.SagaMetaModelFactory;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.SagaSchema;
import org.axonframework.serialization.Serializer;

/**
 * A saga store that answers the association lookups of a batch of events with one query per batch. Axon's saga
 * manager asks for each event's sagas one query at a time: two queries per job (its start and its end), which were
 * the largest share of the database's work under load.
 * <p>
 * Inside a batch the first lookup reads the sagas of every association value the batch's events carry. That answer
 * holds for the whole batch: sagas this batch creates or ends are written only when it commits (the saga repository
 * adds the ones it created meanwhile), and sagas of a job are created only by the segment its job id hashes to. Outside
 * a batch, and for a value the batch did not carry, the lookup goes to the delegate. Everything else is the delegate's.
 */
public final class BatchLookupSagaStore implements SagaStore<Object> {

    /** Values per IN list; a batch of events is far smaller than this, but a limit is stated rather than assumed. */
    static final int VALUES_PER_QUERY = 500;

    private final SagaStore<Object> delegate;
    private final ConnectionProvider connections;
    private final Serializer serializer;
    private final SagaSchema schema;
    private final Supplier<SagaMetaModelFactory> buildModels;
    private volatile SagaMetaModelFactory models;

    /**
     * @param buildModels builds the sagas' models as the application's configuration does; called at the first batch,
     *                    when that configuration is complete (the store is one of its parts)
     */
    public BatchLookupSagaStore(
            SagaStore<Object> delegate,
            ConnectionProvider connections,
            Serializer serializer,
            SagaSchema schema,
            Supplier<SagaMetaModelFactory> buildModels) {
        this.delegate = delegate;
        this.buildModels = buildModels;
        this.connections = connections;
        this.serializer = serializer;
        this.schema = schema;
    }

    @Override
    public Set<String> findSagas(Class<?> sagaType, AssociationValue associationValue) {
        Map<AssociationValue, Set<String>> batch = lookupsOfThisBatch(sagaType);
        Set<String> found = batch == null ? null : batch.get(associationValue);
        return found != null ? new TreeSet<>(found) : delegate.findSagas(sagaType, associationValue);
    }

    private Map<AssociationValue, Set<String>> lookupsOfThisBatch(Class<?> sagaType) {
        ProcessorBatch batch = ProcessorBatch.current();
        if (batch == null) return null;
        return batch.once(
                BatchLookupSagaStore.class.getName() + "/" + sagaType.getName(),
                messages -> lookUp(sagaType, associationValues(sagaType, messages)));
    }

    private Set<AssociationValue> associationValues(Class<?> sagaType, List<?> messages) {
        if (models == null) models = buildModels.get();
        var model = models.modelOf(sagaType);
        Set<AssociationValue> values = new LinkedHashSet<>();
        for (Object message : messages) {
            if (message instanceof EventMessage<?> event)
                model.resolveAssociation(event).ifPresent(values::add);
        }
        return values;
    }

    private Map<AssociationValue, Set<String>> lookUp(Class<?> sagaType, Set<AssociationValue> values) {
        Map<AssociationValue, Set<String>> found = new HashMap<>();
        values.forEach(value -> found.put(value, new TreeSet<>()));
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        values.forEach(value ->
                byKey.computeIfAbsent(value.getKey(), k -> new ArrayList<>()).add(value.getValue()));
        String typeName = serializer.typeForClass(sagaType).getName();
        try (Connection connection = connections.getConnection()) {
            for (Map.Entry<String, List<String>> key : byKey.entrySet()) {
                List<String> all = key.getValue();
                for (int from = 0; from < all.size(); from += VALUES_PER_QUERY) {
                    List<String> chunk = all.subList(from, Math.min(all.size(), from + VALUES_PER_QUERY));
                    read(connection, typeName, key.getKey(), chunk, found);
                }
            }
        } catch (SQLException e) {
            throw new SagaStorageException("Exception while reading the saga associations of a batch", e);
        }
        return found;
    }

    private void read(
            Connection connection,
            String typeName,
            String key,
            List<String> values,
            Map<AssociationValue, Set<String>> found)
            throws SQLException {
        String sql = "SELECT " + schema.associationValueColumn() + ", " + schema.sagaIdColumn()
                + " FROM " + schema.associationValueEntryTable()
                + " WHERE " + schema.sagaTypeColumn() + " = ? AND " + schema.associationKeyColumn() + " = ?"
                + " AND " + schema.associationValueColumn() + " IN ("
                + String.join(",", Collections.nCopies(values.size(), "?")) + ")";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, typeName);
            statement.setString(2, key);
            for (int i = 0; i < values.size(); i++) statement.setString(i + 3, values.get(i));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.computeIfAbsent(new AssociationValue(key, rows.getString(1)), v -> new TreeSet<>())
                            .add(rows.getString(2));
                }
            }
        }
    }

    @Override
    public <S> Entry<S> loadSaga(Class<S> sagaType, String sagaIdentifier) {
        return delegate.loadSaga(sagaType, sagaIdentifier);
    }

    @Override
    public void deleteSaga(Class<?> sagaType, String sagaIdentifier, Set<AssociationValue> associationValues) {
        delegate.deleteSaga(sagaType, sagaIdentifier, associationValues);
    }

    @Override
    public void insertSaga(
            Class<?> sagaType, String sagaIdentifier, Object saga, Set<AssociationValue> associationValues) {
        delegate.insertSaga(sagaType, sagaIdentifier, saga, associationValues);
    }

    @Override
    public void updateSaga(Class<?> sagaType, String sagaIdentifier, Object saga, AssociationValues associationValues) {
        delegate.updateSaga(sagaType, sagaIdentifier, saga, associationValues);
    }
}
