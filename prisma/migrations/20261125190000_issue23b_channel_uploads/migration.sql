-- Uploads of a partner channel (creator site, overlays) have no project: the owner is the channel.
ALTER TABLE "uploads" ALTER COLUMN "project_id" DROP NOT NULL;
