-- Campaigns of the partner network (issue 25): campaigns, key pools, applications, promo codes,
-- tracked links, the channel statistics OnAir samples, and the admin portal's audit trail.

CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "summary" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "game" TEXT NOT NULL,
    "genre" TEXT NOT NULL DEFAULT '',
    "developer" TEXT NOT NULL DEFAULT '',
    "publisher" TEXT NOT NULL DEFAULT '',
    "business_model" TEXT,
    "platforms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "geo" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "min_followers" INTEGER,
    "min_subscribers" INTEGER,
    "min_total_views" INTEGER,
    "min_average_viewers_30d" INTEGER,
    "min_hours_streamed_30d" INTEGER,
    "requires_review" BOOLEAN NOT NULL DEFAULT true,
    "revenue_share_permille" INTEGER,
    "revenue_share_ends_at" TIMESTAMP(3),
    "promo_discount_kind" TEXT,
    "promo_min_percent" INTEGER,
    "promo_max_percent" INTEGER,
    "store_url" TEXT,
    "keys_available_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "keys_notified_at" TIMESTAMP(3),
    "resources" JSONB NOT NULL DEFAULT '[]',
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "campaigns_status_idx" ON "campaigns"("status");

CREATE TABLE "campaign_keys" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "key_enc" TEXT NOT NULL,
    "key_digest" TEXT NOT NULL,
    "application_id" UUID,
    "claimed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "campaign_keys_application_id_key" ON "campaign_keys"("application_id");
CREATE UNIQUE INDEX "campaign_keys_campaign_id_key_digest_key" ON "campaign_keys"("campaign_id", "key_digest");
CREATE INDEX "campaign_keys_campaign_id_platform_application_id_idx" ON "campaign_keys"("campaign_id", "platform", "application_id");

CREATE TABLE "campaign_applications" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "creator_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "primary_channel" TEXT NOT NULL DEFAULT '',
    "key_platform" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "agreement_at" TIMESTAMP(3),
    "decided_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_applications_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "campaign_applications_campaign_id_creator_id_key" ON "campaign_applications"("campaign_id", "creator_id");
CREATE INDEX "campaign_applications_creator_id_idx" ON "campaign_applications"("creator_id");

CREATE TABLE "promo_codes" (
    "id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "discount_percent" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "promo_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "promo_codes_code_key" ON "promo_codes"("code");

CREATE TABLE "campaign_links" (
    "id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_links_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "campaign_links_application_id_key" ON "campaign_links"("application_id");
CREATE UNIQUE INDEX "campaign_links_slug_key" ON "campaign_links"("slug");

CREATE TABLE "channel_stat_samples" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "sampled_at" TIMESTAMP(3) NOT NULL,
    "followers" INTEGER,
    "subscribers" INTEGER,
    "total_views" INTEGER,
    "live" BOOLEAN NOT NULL,
    "viewers" INTEGER,
    "minutes" INTEGER NOT NULL,

    CONSTRAINT "channel_stat_samples_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "channel_stat_samples_user_id_sampled_at_idx" ON "channel_stat_samples"("user_id", "sampled_at");

CREATE TABLE "admin_audit_entries" (
    "id" UUID NOT NULL,
    "actor_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_audit_entries_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "admin_audit_entries_target_type_target_id_idx" ON "admin_audit_entries"("target_type", "target_id");

ALTER TABLE "campaign_keys" ADD CONSTRAINT "campaign_keys_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaign_keys" ADD CONSTRAINT "campaign_keys_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "campaign_applications"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "campaign_applications" ADD CONSTRAINT "campaign_applications_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaign_applications" ADD CONSTRAINT "campaign_applications_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "campaign_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaign_links" ADD CONSTRAINT "campaign_links_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "campaign_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "channel_stat_samples" ADD CONSTRAINT "channel_stat_samples_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
