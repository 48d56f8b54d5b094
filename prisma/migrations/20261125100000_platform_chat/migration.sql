-- CreateTable
CREATE TABLE "chat_messages" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "broadcast_id" UUID,
    "direction" TEXT NOT NULL,
    "platform" TEXT,
    "destination_id" UUID,
    "platform_message_id" TEXT,
    "sender" TEXT,
    "display_name" TEXT NOT NULL,
    "avatar" TEXT,
    "content" TEXT NOT NULL,
    "segments" JSONB NOT NULL,
    "private" BOOLEAN NOT NULL DEFAULT false,
    "sent_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_deliveries" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "destination_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "error" TEXT,
    "platform_message_id" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "chat_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chat_messages_destination_id_platform_message_id_key" ON "chat_messages"("destination_id", "platform_message_id");

-- CreateIndex
CREATE INDEX "chat_messages_project_id_broadcast_id_sent_at_idx" ON "chat_messages"("project_id", "broadcast_id", "sent_at");

-- CreateIndex
CREATE UNIQUE INDEX "chat_deliveries_message_id_destination_id_key" ON "chat_deliveries"("message_id", "destination_id");

-- CreateIndex
CREATE INDEX "chat_deliveries_destination_id_platform_message_id_idx" ON "chat_deliveries"("destination_id", "platform_message_id");

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_deliveries" ADD CONSTRAINT "chat_deliveries_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
