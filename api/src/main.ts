import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { createDb } from '@onair/db';
import { createLogger, onShutdownSignal, SecretBox } from '@onair/runtime';
import { createApp } from './app.ts';
import { createAccounts } from './auth/index.ts';
import { loadConfig } from './config.ts';
import { startBroadcastWatch } from './destinations/index.ts';
import { startIngestWatch } from './ingest/index.ts';
import { startCountdownWatch } from './scenes/countdown-watch.ts';
import { ScheduledBroadcastQueue, startScheduledBroadcasts } from './schedules/index.ts';
import { createFleetController } from './fleet/create-fleet-controller.ts';
import { SessionService } from './sessions/session-service.ts';
import { AccountDeletionService } from './partner/account-deletion/deletion-service.ts';
import { AccountErasureJob } from './partner/account-deletion/erasure-job.ts';
import { createRecordingArchive, RecordingFiles, RecordingRetentionJob, RecordingService } from './recordings/index.ts';
import { DataExportQueue } from './partner/data-exports/export-job.ts';
import { createDataExportService } from './partner/index.ts';
import { attachStudioSockets } from './ws/index.ts';
import { CampaignSweepJob } from './campaigns/campaign-jobs.ts';
import { CampaignService } from './campaigns/campaign-service.ts';
import { ChannelStatsSampler } from './campaigns/channel-stats-sampler.ts';

const config = loadConfig();
const logger = createLogger('api', config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

const accounts = createAccounts({ config, db, redis, logger });
// One session placement for the routes and the broadcast watch (output health, plan stream limit).
const sessions = new SessionService(db, redis, config.SECRETS_KEY ? new SecretBox(config.SECRETS_KEY) : undefined, logger);
// Data exports are queued by the routes and built by this replica's worker (any replica's).
const exportQueue = new DataExportQueue(redis);
exportQueue.work(
  createDataExportService({ db, logger, mailer: accounts.mailer, publicUrl: config.PUBLIC_URL, exportLinkHours: config.EXPORT_LINK_HOURS, exportQueue }),
  logger,
);
// Issue 19: scheduled video broadcasts wait in this queue; this process runs its share of them.
const scheduleQueue = new ScheduledBroadcastQueue(redis);
startScheduledBroadcasts({ config, db, redis, logger, sessions, queue: scheduleQueue });
const app = createApp({ config, db, redis, logger, accounts, sessions, exportQueue, scheduleQueue });
const broadcastWatch = await startBroadcastWatch({ config, db, redis, logger, sessions });
const ingestWatch = startIngestWatch({ config, db, redis, logger, sessions });
// Issue 19: countdown scenes switch to their next scene when their time is up, studio open or not.
const countdownWatch = startCountdownWatch({ config, db, redis, logger });
const server = createServer(app);
const sockets = await attachStudioSockets(server, { config, db, redis, logger, accounts });
server.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, host: config.HOST, publicUrl: config.PUBLIC_URL }, 'api listening');
});
// Every replica runs it; only the one holding the Redis lease samples load and scales.
const fleet = createFleetController(config, redis, logger);
fleet.start();
// Partner spec §4: accounts deleted longer ago than the retention window are erased by this job.
const erasure = new AccountErasureJob({
  redis,
  logger,
  deletion: new AccountDeletionService({ db, logger, retentionDays: config.ACCOUNT_RETENTION_DAYS }),
  everyMs: config.ACCOUNT_ERASURE_INTERVAL_SECONDS * 1000,
});
await erasure.start();
// Issue 19: recordings past their plan's retention are deleted from the uploads store by this job
// (which also copies ended recordings into the bucket with UPLOADS_BACKEND=s3).
const recordingArchive = createRecordingArchive(config);
const recordingRetention = new RecordingRetentionJob({
  redis,
  logger,
  recordings: new RecordingService({ db, files: new RecordingFiles(config.UPLOADS_DIR), logger, ...(recordingArchive ? { archive: recordingArchive } : {}) }),
  everyMs: config.RECORDING_RETENTION_INTERVAL_SECONDS * 1000,
});
await recordingRetention.start();
// Campaigns (issue 25): sampled channel statistics, expiry, 'your key is ready' mails.
const campaignSweep = new CampaignSweepJob({
  redis,
  logger,
  campaigns: new CampaignService({ db, logger, mailer: accounts.mailer, publicUrl: config.PUBLIC_URL, secrets: config.SECRETS_KEY ? new SecretBox(config.SECRETS_KEY) : null }),
  sampler: new ChannelStatsSampler({
    db,
    logger,
    apiUrl: config.TWITCH_API_URL,
    clientId: config.TWITCH_CLIENT_ID ?? null,
    // better-auth hands out the linked account's token, refreshing it when it has expired.
    tokenFor: async (userId, accountId) => (await accounts.auth.api.getAccessToken({ body: { accountId, userId } })).accessToken ?? null,
    intervalMinutes: config.CHANNEL_STATS_SAMPLE_MINUTES,
  }),
  everyMs: config.CHANNEL_STATS_SAMPLE_MINUTES * 60_000,
});
await campaignSweep.start();

onShutdownSignal(logger, async () => {
  await fleet.stop();
  await erasure.close();
  await recordingRetention.close();
  await scheduleQueue.close();
  await campaignSweep.close();
  await exportQueue.close();
  await broadcastWatch.close();
  ingestWatch.close();
  countdownWatch.close();
  await sockets.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
  await sessions.closeQueue();
  await redis.quit();
  await db.$disconnect();
});
