-- failed console logins per client address, so one address guessing many user names is slowed down on every node;
-- rows whose window and lock both ended are deleted as new failures come in
CREATE TABLE login_address_failures (
    address      VARCHAR(64) NOT NULL PRIMARY KEY,
    failures     INT         NOT NULL,
    window_until BIGINT      NOT NULL,
    locked_until BIGINT      NOT NULL,
    KEY login_address_failures_expiry (window_until)
);
