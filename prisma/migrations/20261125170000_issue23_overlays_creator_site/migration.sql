-- Overlays and the creator site (issue 23, partner spec §2 'Overlay', 'Creator Site').

-- CreateTable
CREATE TABLE "overlays" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "widgets" JSONB NOT NULL DEFAULT '[]',
    "trigger_access" JSONB NOT NULL DEFAULT '{"mode":"all","whitelist":[]}',
    "key_salt" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "overlays_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "creator_sites" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "headline" TEXT NOT NULL DEFAULT '',
    "blocks" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "creator_sites_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "overlays_channel_id_idx" ON "overlays"("channel_id");

-- CreateIndex
CREATE UNIQUE INDEX "creator_sites_channel_id_key" ON "creator_sites"("channel_id");

-- AddForeignKey
ALTER TABLE "overlays" ADD CONSTRAINT "overlays_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "creator_sites" ADD CONSTRAINT "creator_sites_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
