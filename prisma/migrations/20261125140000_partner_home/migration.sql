-- The partner network, part 1: creator profiles, collaborator invitations, platform logins, account deletion.

ALTER TABLE "users" ADD COLUMN "deactivated_at" TIMESTAMP(3), ADD COLUMN "erase_after" TIMESTAMP(3);
CREATE INDEX "users_erase_after_idx" ON "users"("erase_after");

CREATE TABLE "partner_profiles" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "username" TEXT,
    "username_key" TEXT,
    "username_changed_at" TIMESTAMP(3),
    "first_name" TEXT,
    "last_name" TEXT,
    "identity" TEXT,
    "pronouns" TEXT NOT NULL DEFAULT '',
    "birthdate" DATE,
    "country" TEXT,
    "content_language" TEXT,
    "streaming_devices" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "main_platform" TEXT,
    "discovery_source" TEXT,
    "notify_digest" BOOLEAN NOT NULL DEFAULT true,
    "notify_product_updates" BOOLEAN NOT NULL DEFAULT true,
    "notify_partner_news" BOOLEAN NOT NULL DEFAULT true,
    "onboarded_at" TIMESTAMP(3),
    "avatar" BYTEA,
    "avatar_type" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "partner_profiles_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "partner_profiles_user_id_key" ON "partner_profiles"("user_id");
CREATE UNIQUE INDEX "partner_profiles_username_key_key" ON "partner_profiles"("username_key");
ALTER TABLE "partner_profiles" ADD CONSTRAINT "partner_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "collaborator_invites" (
    "id" UUID NOT NULL,
    "channel_owner_id" TEXT NOT NULL,
    "invitee_email" TEXT,
    "invitee_twitch_login" TEXT,
    "collaborator_id" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "state" TEXT NOT NULL DEFAULT 'pending',
    "decline_token_hash" TEXT NOT NULL,
    "answered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "collaborator_invites_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "collaborator_invites_one_invitee" CHECK (("invitee_email" IS NULL) <> ("invitee_twitch_login" IS NULL)),
    CONSTRAINT "collaborator_invites_state" CHECK ("state" IN ('pending', 'declined', 'accepted'))
);
CREATE UNIQUE INDEX "collaborator_invites_decline_token_hash_key" ON "collaborator_invites"("decline_token_hash");
CREATE INDEX "collaborator_invites_channel_owner_id_idx" ON "collaborator_invites"("channel_owner_id");
CREATE INDEX "collaborator_invites_collaborator_id_idx" ON "collaborator_invites"("collaborator_id");
CREATE INDEX "collaborator_invites_invitee_email_idx" ON "collaborator_invites"("invitee_email");
CREATE INDEX "collaborator_invites_invitee_twitch_login_idx" ON "collaborator_invites"("invitee_twitch_login");
-- One open invitation or collaboration per invitee and channel (two concurrent invites cannot both pass the check).
CREATE UNIQUE INDEX "collaborator_invites_open_email" ON "collaborator_invites"("channel_owner_id", "invitee_email") WHERE "state" <> 'declined';
CREATE UNIQUE INDEX "collaborator_invites_open_twitch" ON "collaborator_invites"("channel_owner_id", "invitee_twitch_login") WHERE "state" <> 'declined';
ALTER TABLE "collaborator_invites" ADD CONSTRAINT "collaborator_invites_channel_owner_id_fkey" FOREIGN KEY ("channel_owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "collaborator_invites" ADD CONSTRAINT "collaborator_invites_collaborator_id_fkey" FOREIGN KEY ("collaborator_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "platform_logins" (
    "id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "login" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_logins_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "platform_logins_provider_id_account_id_key" ON "platform_logins"("provider_id", "account_id");
CREATE INDEX "platform_logins_provider_id_login_idx" ON "platform_logins"("provider_id", "login");

CREATE TABLE "data_exports" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "archive" BYTEA,
    "size_bytes" INTEGER,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "data_exports_state" CHECK ("state" IN ('queued', 'running', 'ready', 'failed'))
);
CREATE INDEX "data_exports_user_id_idx" ON "data_exports"("user_id");
-- One export at a time: a second one while one is queued or running cannot be inserted.
CREATE UNIQUE INDEX "data_exports_one_open" ON "data_exports"("user_id") WHERE "state" IN ('queued', 'running');
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Third-party applications (OAuth 2.0 authorization code with PKCE, device authorization).
CREATE TABLE "oauth_applications" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "redirect_uris" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_applications_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_applications_client_id_key" ON "oauth_applications"("client_id");

CREATE TABLE "oauth_grants" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "application_id" UUID NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_grants_user_id_application_id_key" ON "oauth_grants"("user_id", "application_id");
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "oauth_authorization_codes" (
    "id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "application_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "code_challenge" TEXT NOT NULL,
    "code_challenge_method" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_authorization_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_authorization_codes_code_hash_key" ON "oauth_authorization_codes"("code_hash");
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "oauth_access_tokens" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "grant_id" UUID NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_access_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_access_tokens_token_hash_key" ON "oauth_access_tokens"("token_hash");
CREATE INDEX "oauth_access_tokens_grant_id_idx" ON "oauth_access_tokens"("grant_id");
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "oauth_device_codes" (
    "id" UUID NOT NULL,
    "device_code_hash" TEXT NOT NULL,
    "user_code_hash" TEXT NOT NULL,
    "application_id" UUID NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'pending',
    "user_id" TEXT,
    "interval_seconds" INTEGER NOT NULL,
    "last_polled_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_device_codes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_device_codes_status" CHECK ("status" IN ('pending', 'allowed', 'denied'))
);
CREATE UNIQUE INDEX "oauth_device_codes_device_code_hash_key" ON "oauth_device_codes"("device_code_hash");
CREATE UNIQUE INDEX "oauth_device_codes_user_code_hash_key" ON "oauth_device_codes"("user_code_hash");
ALTER TABLE "oauth_device_codes" ADD CONSTRAINT "oauth_device_codes_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth_applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
