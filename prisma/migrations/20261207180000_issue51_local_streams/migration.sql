-- A Local stream per project (issue 51 item 1): each Local destination publishes to a stream name
-- of its own on the operator's RTMP server, sealed in stream_key_enc like any stream key. The RTMP
-- server's on_publish callback finds the destination by the name's SHA-256 (hex), unique here so a
-- name leads to one destination only.

-- AlterTable
ALTER TABLE "destinations" ADD COLUMN "local_stream_hash" TEXT;

-- Local rows made before carry the server's one shared key, which no longer publishes: it is
-- dropped here, and each row gets a name of its own on first use (the studio asking for its
-- address, or the next go-live), sealed by the api (a migration cannot seal with SECRETS_KEY).
UPDATE "destinations" SET "stream_key_enc" = NULL, "stream_key_hash" = NULL WHERE "type" = 'Local';

-- CreateIndex
CREATE UNIQUE INDEX "destinations_local_stream_hash_key" ON "destinations"("local_stream_hash");
