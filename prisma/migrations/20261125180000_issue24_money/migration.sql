-- The partner network, part 4 (issue 24): tips, the append-only ledger, payouts, charity, statistics hits.

CREATE TABLE "tip_settings" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "payment_email" TEXT NOT NULL DEFAULT '',
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "min_tip" INTEGER NOT NULL DEFAULT 200,
    "max_tip" INTEGER NOT NULL DEFAULT 50000,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "tip_settings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "tip_settings_channel_id_key" UNIQUE ("channel_id"),
    CONSTRAINT "tip_settings_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    -- Spec §9: the minimum exceeds $1, the maximum is at most $2000 and exceeds the minimum.
    CONSTRAINT "tip_settings_limits" CHECK ("min_tip" > 100 AND "max_tip" <= 200000 AND "max_tip" > "min_tip")
);

CREATE TABLE "money_switches" (
    "id" TEXT NOT NULL,
    "on" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "money_switches_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "tips" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "tipper_name" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "amount" INTEGER NOT NULL CHECK ("amount" > 0),
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "checkout_id" TEXT,
    "payment_intent_id" TEXT,
    "paid_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tips_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tips_checkout_id_key" ON "tips"("checkout_id");
CREATE UNIQUE INDEX "tips_payment_intent_id_key" ON "tips"("payment_intent_id");
CREATE INDEX "tips_channel_id_created_at_idx" ON "tips"("channel_id", "created_at");

CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" INTEGER NOT NULL CHECK ("amount" <> 0),
    "currency" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "campaign_name" TEXT,
    "tip_id" UUID,
    "payout_id" UUID,
    "provider_event_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ledger_entries_provider_event_id_key" ON "ledger_entries"("provider_event_id");
-- A tip is credited once, charged back once and reinstated once; refunds may be partial (one per event).
CREATE UNIQUE INDEX "ledger_entries_kind_tip_id_key" ON "ledger_entries"("kind", "tip_id") WHERE "kind" IN ('tip', 'tip_dispute', 'tip_dispute_won');
CREATE UNIQUE INDEX "ledger_entries_kind_payout_id_key" ON "ledger_entries"("kind", "payout_id");
CREATE INDEX "ledger_entries_channel_id_created_at_idx" ON "ledger_entries"("channel_id", "created_at");

-- Append-only: a wrong entry is corrected by another entry, never by editing or deleting one.
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$;
CREATE TRIGGER "ledger_entries_no_update_or_delete" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();

CREATE TABLE "payment_methods" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "address_line1" TEXT NOT NULL,
    "address_line2" TEXT NOT NULL DEFAULT '',
    "account_holder" TEXT NOT NULL,
    "account_sealed" TEXT NOT NULL,
    "account_last4" TEXT NOT NULL,
    "bank_name" TEXT NOT NULL,
    "routing_code" TEXT NOT NULL DEFAULT '',
    "bank_address" TEXT NOT NULL DEFAULT '',
    "country" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "swift" TEXT NOT NULL DEFAULT '',
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_methods_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "payment_methods_channel_id_idx" ON "payment_methods"("channel_id");
-- At most one default per channel.
CREATE UNIQUE INDEX "payment_methods_one_default" ON "payment_methods"("channel_id") WHERE "is_default";

CREATE TABLE "tax_interviews" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "legal_name" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "tax_country" TEXT NOT NULL,
    "tax_id_sealed" TEXT NOT NULL,
    "tax_id_last4" TEXT NOT NULL,
    "completed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tax_interviews_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "tax_interviews_channel_id_key" UNIQUE ("channel_id"),
    CONSTRAINT "tax_interviews_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "payout_accounts" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "payment_method_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payout_accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payout_accounts_channel_id_key" UNIQUE ("channel_id")
);
CREATE UNIQUE INDEX "payout_accounts_account_id_key" ON "payout_accounts"("account_id");

CREATE TABLE "payouts" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL CHECK ("amount" > 0),
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'new',
    "payment_method_id" UUID NOT NULL,
    "method_label" TEXT NOT NULL,
    "fee" INTEGER NOT NULL DEFAULT 0,
    "transfer_id" TEXT,
    "provider_payout_id" TEXT,
    "estimated_from" DATE NOT NULL,
    "estimated_to" DATE NOT NULL,
    "failure_reason" TEXT,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payouts_status" CHECK ("status" IN ('new', 'processing', 'delayed', 'completed', 'canceled'))
);
CREATE UNIQUE INDEX "payouts_transfer_id_key" ON "payouts"("transfer_id");
CREATE UNIQUE INDEX "payouts_provider_payout_id_key" ON "payouts"("provider_payout_id");
CREATE INDEX "payouts_channel_id_created_at_idx" ON "payouts"("channel_id", "created_at");

CREATE TABLE "charity_campaigns" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "provider_id" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "charity_campaigns_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "charity_campaigns_channel_id_key" UNIQUE ("channel_id"),
    CONSTRAINT "charity_campaigns_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "charity_campaigns_provider_id_key" ON "charity_campaigns"("provider_id");

CREATE TABLE "tip_page_hits" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tip_page_hits_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "tip_page_hits_channel_id_created_at_idx" ON "tip_page_hits"("channel_id", "created_at");
