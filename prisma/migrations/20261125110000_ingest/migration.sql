-- AlterTable
ALTER TABLE "projects" ADD COLUMN "ingest_key_hash" TEXT,
ADD COLUMN "ingest_key_enc" TEXT;

-- AlterTable
ALTER TABLE "destinations" ADD COLUMN "stream_key_hash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "projects_ingest_key_hash_key" ON "projects"("ingest_key_hash");

-- CreateIndex
CREATE INDEX "destinations_stream_key_hash_idx" ON "destinations"("stream_key_hash");
