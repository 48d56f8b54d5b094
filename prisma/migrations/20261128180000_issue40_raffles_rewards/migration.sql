-- Giveaways of the chatbot and the Points program's event rewards, paid once per event (issue 40 item 1).

-- CreateTable
CREATE TABLE "chatbot_raffles" (
    "id" UUID NOT NULL,
    "channel_id" TEXT NOT NULL,
    "keyword" TEXT NOT NULL,
    "entry_cost" INTEGER NOT NULL,
    "subscriber_luck" INTEGER NOT NULL,
    "max_entries" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "opened_at" TIMESTAMP(3) NOT NULL,
    "closes_at" TIMESTAMP(3) NOT NULL,
    "drawn_at" TIMESTAMP(3),
    "winner_user_id" TEXT,
    "winner_login" TEXT,
    "winner_points" INTEGER,
    "announced_at" TIMESTAMP(3),

    CONSTRAINT "chatbot_raffles_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chatbot_raffles_channel_id_opened_at_idx" ON "chatbot_raffles"("channel_id", "opened_at");

-- At most one open giveaway per channel.
CREATE UNIQUE INDEX "chatbot_raffles_one_open" ON "chatbot_raffles"("channel_id") WHERE "status" = 'open';

-- CreateTable
CREATE TABLE "chatbot_raffle_entries" (
    "raffle_id" UUID NOT NULL,
    "platform_user_id" TEXT NOT NULL,
    "login" TEXT NOT NULL,
    "subscriber" BOOLEAN NOT NULL,
    "tickets" INTEGER NOT NULL,
    "points_spent" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chatbot_raffle_entries_pkey" PRIMARY KEY ("raffle_id","platform_user_id")
);

-- AddForeignKey
ALTER TABLE "chatbot_raffle_entries" ADD CONSTRAINT "chatbot_raffle_entries_raffle_id_fkey" FOREIGN KEY ("raffle_id") REFERENCES "chatbot_raffles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "chatbot_point_rewards" (
    "channel_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "login" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMP(3),

    CONSTRAINT "chatbot_point_rewards_pkey" PRIMARY KEY ("channel_id","key")
);

-- CreateIndex
CREATE INDEX "chatbot_point_rewards_channel_id_login_idx" ON "chatbot_point_rewards"("channel_id", "login");
