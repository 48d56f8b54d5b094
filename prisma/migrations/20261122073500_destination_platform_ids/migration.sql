-- AlterTable
ALTER TABLE "destinations" ADD COLUMN     "logo" TEXT,
ADD COLUMN     "platform_account_id" TEXT,
ADD COLUMN     "platform_broadcast_id" TEXT,
ADD COLUMN     "platform_stream_id" TEXT;

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "ends_at" TIMESTAMP(3);
