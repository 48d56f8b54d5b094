-- The partner network, part 2: the chatbot (issue 22).

CREATE TABLE "chatbot_settings" (
    "channel_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "enabled_at" TIMESTAMP(3),
    "filters" JSONB,
    "moderation" JSONB,
    "warning_levels" JSONB,
    "timer_settings" JSONB,
    "alerts" JSONB,
    "loyalty" JSONB,
    "ranks" JSONB,
    "link_preview" JSONB,
    "extras" JSONB,
    "last_quote_number" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "chatbot_settings_pkey" PRIMARY KEY ("channel_id")
);
ALTER TABLE "chatbot_settings" ADD CONSTRAINT "chatbot_settings_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "chatbot_commands" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "permission" TEXT NOT NULL DEFAULT 'everyone',
    "reply_to_sender" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT NOT NULL DEFAULT '',
    "point_cost" INTEGER NOT NULL DEFAULT 0,
    "platforms" TEXT[] DEFAULT ARRAY['twitch']::TEXT[],
    "global_cooldown_seconds" INTEGER NOT NULL DEFAULT 0,
    "user_cooldown_seconds" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "use_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "chatbot_commands_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "chatbot_commands_channel_id_name_key_key" ON "chatbot_commands"("channel_id", "name_key");

CREATE TABLE "chatbot_timers" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "platforms" TEXT[] DEFAULT ARRAY['twitch']::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "chatbot_timers_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "chatbot_timers_channel_id_idx" ON "chatbot_timers"("channel_id");

CREATE TABLE "chatbot_quotes" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "message" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chatbot_quotes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "chatbot_quotes_channel_id_number_key" ON "chatbot_quotes"("channel_id", "number");

CREATE TABLE "chatbot_users" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "platform" TEXT NOT NULL DEFAULT 'twitch',
    "username" TEXT NOT NULL,
    "username_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chatbot_users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "chatbot_users_channel_id_kind_platform_username_key_key" ON "chatbot_users"("channel_id", "kind", "platform", "username_key");

CREATE TABLE "chatbot_viewers" (
    "channel_id" TEXT NOT NULL,
    "platform_user_id" TEXT NOT NULL,
    "login" TEXT NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "seconds_watched" INTEGER NOT NULL DEFAULT 0,
    "warnings" INTEGER NOT NULL DEFAULT 0,
    "last_warning_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "chatbot_viewers_pkey" PRIMARY KEY ("channel_id", "platform_user_id")
);
CREATE INDEX "chatbot_viewers_channel_id_login_idx" ON "chatbot_viewers"("channel_id", "login");
