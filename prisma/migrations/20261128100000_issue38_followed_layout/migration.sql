-- Layouts a scene follows (issue 38): {layout, mainLayerId} while the scene re-flows its cameras, guests, screens and game
-- in a one-click layout as they come and go; null when the creator arranges it by hand.

-- AlterTable
ALTER TABLE "scenes" ADD COLUMN "followed_layout" JSONB;
