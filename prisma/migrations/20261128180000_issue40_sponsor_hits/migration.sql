-- Sponsorships in Statistics (issue 40 item 2): each impression and click of a campaign's tracked link, with its time
-- and source (the creator site, an overlay, the link itself), so they can be grouped daily, weekly, monthly or by stream.
-- The counters on campaign_links stay as the all-time totals.

-- CreateTable
CREATE TABLE "campaign_link_hits" (
    "id" UUID NOT NULL,
    "link_id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_link_hits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "campaign_link_hits_channel_id_created_at_idx" ON "campaign_link_hits"("channel_id", "created_at");

-- AddForeignKey
ALTER TABLE "campaign_link_hits" ADD CONSTRAINT "campaign_link_hits_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "campaign_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;
