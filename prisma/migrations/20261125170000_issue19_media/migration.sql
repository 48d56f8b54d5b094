-- AlterEnum: uploaded video files are a source kind
ALTER TYPE "SourceKind" ADD VALUE 'video';

-- AlterTable: screens (Starting Soon, Be Right Back, Ending) are scenes of their own kind
ALTER TABLE "scenes" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'standard';

-- AlterTable: a countdown scene's time and next scene
ALTER TABLE "scenes" ADD COLUMN "countdown" JSONB;

-- CreateTable
CREATE TABLE "uploads" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "duration_seconds" DOUBLE PRECISION,
    "has_audio" BOOLEAN NOT NULL DEFAULT false,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "uploads_storage_key_key" ON "uploads"("storage_key");

-- CreateIndex
CREATE INDEX "uploads_project_id_idx" ON "uploads"("project_id");

-- CreateIndex
CREATE INDEX "uploads_owner_id_idx" ON "uploads"("owner_id");

-- AddForeignKey
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: a broadcast's recording (fragmented MP4 parts in the uploads store)
CREATE TABLE "recordings" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "broadcast_id" UUID NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'recording',
    "retention_days" INTEGER NOT NULL,
    "size_bytes" BIGINT NOT NULL DEFAULT 0,
    "duration_seconds" DOUBLE PRECISION,
    "parts" JSONB NOT NULL DEFAULT '[]',
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "recordings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "recordings_broadcast_id_key" ON "recordings"("broadcast_id");

-- CreateIndex
CREATE INDEX "recordings_project_id_idx" ON "recordings"("project_id");

-- CreateIndex
CREATE INDEX "recordings_expires_at_idx" ON "recordings"("expires_at");

-- AddForeignKey
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable: pre-roll and post-roll padding at Go Live and End Broadcast
ALTER TABLE "broadcasts" ADD COLUMN "live_at" TIMESTAMP(3),
ADD COLUMN "post_roll_seconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "stop_at" TIMESTAMP(3);

-- CreateTable: 'stream a video file as live' at a scheduled time
CREATE TABLE "scheduled_broadcasts" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "upload_id" UUID NOT NULL,
    "start_at" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'scheduled',
    "failure_reason" TEXT,
    "broadcast_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_broadcasts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scheduled_broadcasts_project_id_idx" ON "scheduled_broadcasts"("project_id");

-- AddForeignKey
ALTER TABLE "scheduled_broadcasts" ADD CONSTRAINT "scheduled_broadcasts_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduled_broadcasts" ADD CONSTRAINT "scheduled_broadcasts_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
