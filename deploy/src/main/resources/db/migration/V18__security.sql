-- API keys: only a SHA-256 of the key is kept (keys are 256 random bits, so a fast hash is enough); revoked keys stay
-- for the audit trail and keep their name taken
CREATE TABLE api_keys (
    id           VARCHAR(36)   NOT NULL PRIMARY KEY,
    name         VARCHAR(100)  NOT NULL,
    key_hash     CHAR(64)      NOT NULL,
    grants       VARCHAR(4000) NOT NULL,
    created_by   VARCHAR(200)  NOT NULL,
    created_at   BIGINT        NOT NULL,
    last_used_at BIGINT        NULL,
    expires_at   BIGINT        NULL,
    revoked_at   BIGINT        NULL,
    revoked_by   VARCHAR(200)  NULL,
    UNIQUE KEY api_keys_hash (key_hash),
    UNIQUE KEY api_keys_name (name)
);

-- console users: BCrypt hashes; failed logins counted per user for the lock-out
CREATE TABLE console_users (
    username      VARCHAR(100)  NOT NULL PRIMARY KEY,
    password_hash VARCHAR(100)  NOT NULL,
    grants        VARCHAR(4000) NOT NULL,
    created_by    VARCHAR(200)  NOT NULL,
    created_at    BIGINT        NOT NULL,
    failed_logins INT           NOT NULL DEFAULT 0,
    locked_until  BIGINT        NOT NULL DEFAULT 0
);

-- one row once the first node has made the initial admin key and user: the INSERT decides which node does it
CREATE TABLE security_bootstrap (
    id      INT    NOT NULL PRIMARY KEY,
    done_at BIGINT NOT NULL
);
