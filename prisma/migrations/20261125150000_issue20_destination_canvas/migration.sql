-- Vertical output (issue 20): each destination gets the horizontal (16:9) or the vertical (9:16)
-- canvas; TikTok joins the stream-key platforms. Instagram, vertical first, defaults to vertical.

-- AlterEnum
ALTER TYPE "DestinationType" ADD VALUE 'TikTok';

-- CreateEnum
CREATE TYPE "OutputCanvas" AS ENUM ('horizontal', 'vertical');

-- AlterTable
ALTER TABLE "destinations" ADD COLUMN "canvas" "OutputCanvas" NOT NULL DEFAULT 'horizontal';

UPDATE "destinations" SET "canvas" = 'vertical' WHERE "type" = 'Instagram';
