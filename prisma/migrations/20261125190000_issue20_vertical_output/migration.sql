-- Vertical output (issue 20): each layer may have a box on the vertical canvas; each destination gets the horizontal (16:9) or the vertical (9:16)
-- canvas; TikTok joins the stream-key platforms. Instagram, vertical first, defaults to vertical.

-- AlterEnum
ALTER TYPE "DestinationType" ADD VALUE 'TikTok';

-- CreateEnum
CREATE TYPE "OutputCanvas" AS ENUM ('horizontal', 'vertical');

-- AlterTable
ALTER TABLE "destinations" ADD COLUMN "canvas" "OutputCanvas" NOT NULL DEFAULT 'horizontal';

UPDATE "destinations" SET "canvas" = 'vertical' WHERE "type" = 'Instagram';

-- A layer's box on the vertical canvas; null while its scene's vertical layout is derived.
ALTER TABLE "layers" ADD COLUMN "vertical" JSONB;
