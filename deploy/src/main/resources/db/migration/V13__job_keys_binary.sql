-- Job keys compare byte for byte. Under utf8mb4_unicode_ci 'Key' and 'key', 'ß' and 'ss', 'a' and 'a ' and some
-- different emoji were one key, so a second job was silently not created. A binary string has no collation and no
-- trailing-space padding, on MySQL and MariaDB alike (utf8mb4_bin pads spaces on both). Existing keys stay distinct:
-- keys unequal under the old collation are unequal as bytes. 1020 bytes hold 255 characters of UTF-8.
ALTER TABLE job_keys MODIFY job_key VARBINARY(1020) NOT NULL;
