-- Guests by link (issue 15): links get a lifetime and their maker; guests and Guest Chat.

-- AlterTable
ALTER TABLE "guest_links" ADD COLUMN "expires_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "created_by_id" TEXT;

-- CreateTable
CREATE TABLE "guests" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "link_id" UUID NOT NULL,
    "display_name" TEXT NOT NULL DEFAULT '',
    "session_token_hash" TEXT NOT NULL,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "left_at" TIMESTAMP(3),
    "removed_at" TIMESTAMP(3),

    CONSTRAINT "guests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "guest_chat_messages" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "sender_id" TEXT NOT NULL,
    "sender_name" TEXT NOT NULL,
    "sender_role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "guest_chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "guests_session_token_hash_key" ON "guests"("session_token_hash");

-- CreateIndex
CREATE INDEX "guests_project_id_idx" ON "guests"("project_id");

-- CreateIndex
CREATE INDEX "guests_link_id_idx" ON "guests"("link_id");

-- CreateIndex
CREATE INDEX "guest_chat_messages_project_id_created_at_idx" ON "guest_chat_messages"("project_id", "created_at");

-- AddForeignKey
ALTER TABLE "guests" ADD CONSTRAINT "guests_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "guests" ADD CONSTRAINT "guests_link_id_fkey" FOREIGN KEY ("link_id") REFERENCES "guest_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "guest_chat_messages" ADD CONSTRAINT "guest_chat_messages_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
