-- Axon Framework 4 JDBC tables, default (CamelCase) names. Axon never creates them itself.
-- LONGBLOB, not BLOB: a BLOB caps a payload at 64 KiB, and job params alone may reach that.

CREATE TABLE DomainEventEntry (
    globalIndex         BIGINT       NOT NULL AUTO_INCREMENT,
    aggregateIdentifier VARCHAR(255) NOT NULL,
    sequenceNumber      BIGINT       NOT NULL,
    type                VARCHAR(255),
    eventIdentifier     VARCHAR(255) NOT NULL,
    metaData            LONGBLOB,
    payload             LONGBLOB     NOT NULL,
    payloadRevision     VARCHAR(255),
    payloadType         VARCHAR(255) NOT NULL,
    timeStamp           VARCHAR(255) NOT NULL,
    PRIMARY KEY (globalIndex),
    -- the compare-and-set of every aggregate: two nodes can never append the same sequence number
    UNIQUE KEY uk_domain_event_aggregate_seq (aggregateIdentifier, sequenceNumber),
    UNIQUE KEY uk_domain_event_identifier (eventIdentifier)
) ENGINE = InnoDB;

CREATE TABLE SnapshotEventEntry (
    aggregateIdentifier VARCHAR(255) NOT NULL,
    sequenceNumber      BIGINT       NOT NULL,
    type                VARCHAR(255) NOT NULL,
    eventIdentifier     VARCHAR(255) NOT NULL,
    metaData            LONGBLOB,
    payload             LONGBLOB     NOT NULL,
    payloadRevision     VARCHAR(255),
    payloadType         VARCHAR(255) NOT NULL,
    timeStamp           VARCHAR(255) NOT NULL,
    PRIMARY KEY (aggregateIdentifier, sequenceNumber),
    UNIQUE KEY uk_snapshot_event_identifier (eventIdentifier)
) ENGINE = InnoDB;

CREATE TABLE TokenEntry (
    processorName VARCHAR(255) NOT NULL,
    segment       INT          NOT NULL,
    token         LONGBLOB,
    tokenType     VARCHAR(255),
    timestamp     VARCHAR(255),
    owner         VARCHAR(255),
    PRIMARY KEY (processorName, segment)
) ENGINE = InnoDB;

CREATE TABLE SagaEntry (
    sagaId         VARCHAR(255) NOT NULL,
    revision       VARCHAR(255),
    sagaType       VARCHAR(255),
    serializedSaga LONGBLOB,
    PRIMARY KEY (sagaId)
) ENGINE = InnoDB;

CREATE TABLE AssociationValueEntry (
    id               BIGINT       NOT NULL AUTO_INCREMENT,
    associationKey   VARCHAR(255) NOT NULL,
    associationValue VARCHAR(255),
    sagaId           VARCHAR(255) NOT NULL,
    sagaType         VARCHAR(255),
    PRIMARY KEY (id),
    -- every saga event is routed by (type, key, value); every saga load and delete by (id, type)
    INDEX idx_association_lookup (sagaType, associationKey, associationValue),
    INDEX idx_association_saga (sagaId, sagaType)
) ENGINE = InnoDB;
