-- CreateTable
CREATE TABLE "live_events" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "destination_id" UUID,
    "platform" TEXT NOT NULL,
    "platform_event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "platform_username" TEXT NOT NULL,
    "avatar" TEXT,
    "value" DOUBLE PRECISION,
    "data" JSONB NOT NULL,
    "replay" BOOLEAN NOT NULL DEFAULT false,
    "suppressed" BOOLEAN NOT NULL DEFAULT false,
    "platform_created_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "live_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "live_events_project_id_platform_created_at_idx" ON "live_events"("project_id", "platform_created_at");

-- CreateIndex
CREATE UNIQUE INDEX "live_events_project_id_platform_platform_event_id_key" ON "live_events"("project_id", "platform", "platform_event_id");

-- AddForeignKey
ALTER TABLE "live_events" ADD CONSTRAINT "live_events_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "alert_settings" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "settings" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_settings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "alert_settings_project_id_key" ON "alert_settings"("project_id");

-- AddForeignKey
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
