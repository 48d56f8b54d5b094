import { randomUUID } from 'node:crypto';
import {
  type OAuthProvider,
  createDestinationBodySchema,
  destinationKinds,
  destinationTypes,
  isDestinationTypeAllowed,
  maximumDestinations,
  MASKED_STREAM_KEY,
  OnAirError,
  TWITCH_REQUIRED_TEXT,
  upgradeTooltipFor,
  UPGRADE_TOOLTIP_MORE_DESTINATIONS,
  type CreateDestinationBody,
  type DestinationEventKind,
  type DestinationList,
  type DestinationPicker,
  type DestinationSettings,
  type DestinationType,
  type DestinationView,
  type UpdateDestinationBody,
} from '@onair/protocol';
import type { Prisma, Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { DestinationEvents } from './destination-events.ts';
import type { DestinationSecrets } from './destination-secrets.ts';
import { newLocalStreamName, type LocalStreams } from './local-streams.ts';
import type { Platforms } from '../platforms/index.ts';
import { assertRtmpAddressAllowed, type RtmpAddressPolicy } from './rtmp-address.ts';

const DESTINATION_NOT_FOUND = 'This destination does not exist.';

/** Checks the caller may manage the project's destinations (NOT_FOUND otherwise). */
export type ProjectAccessCheck = (user: CurrentUser, projectId: string) => Promise<unknown>;

export interface DestinationServiceDeps {
  db: Db;
  events: DestinationEvents;
  secrets: DestinationSecrets;
  platforms: Platforms;
  rtmpPolicy: RtmpAddressPolicy;
  /** The operator's own RTMP server (LOCAL_RTMP_URL) and each Local destination's stream on it; null: no Local destination. */
  local: { url: string; streams: LocalStreams } | null;
  assertProjectAccess: ProjectAccessCheck;
  logger: Logger;
  /** Platforms offered through the one-machine stack's local doubles (test mode); none by default. */
  testModePlatforms?: ReadonlySet<OAuthProvider>;
}

export function settingsOf(row: Pick<Destination, 'settings'>): DestinationSettings {
  const s = row.settings;
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as DestinationSettings) : {};
}

export function isAuthenticated(row: Pick<Destination, 'type' | 'accessTokenEnc'>): boolean {
  return destinationKinds[row.type].connection !== 'oauth' || row.accessTokenEnc !== null;
}

/** Connected once (its platform account is known), its tokens since refused or revoked. */
export function needsSignIn(row: Pick<Destination, 'type' | 'accessTokenEnc' | 'platformAccountId'>): boolean {
  return !isAuthenticated(row) && row.platformAccountId !== null;
}

/** A row as the browser may see it: the key masked, tokens absent. */
export function toView(row: Destination): DestinationView {
  return {
    id: row.id,
    projectId: row.projectId,
    type: row.type,
    providerId: row.providerId,
    name: row.name,
    enabled: row.enabled,
    username: row.username,
    logo: row.logo,
    dashboardUrl: row.dashboardUrl,
    settings: settingsOf(row),
    rtmpUrl: row.rtmpUrl,
    streamKeyMasked: row.streamKeyEnc ? MASKED_STREAM_KEY : null,
    authenticated: isAuthenticated(row),
    needsSignIn: needsSignIn(row),
    autoLive: row.autoLive,
    canvas: row.canvas,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A project's destinations: the rules of spec §5 and §6 on every write (plan limit, paid kinds,
 * RTMP address policy, the Facebook target rule), secrets sealed before they reach the database,
 * and Added/Changed/Removed pushed to every open studio of the project.
 */
export class DestinationService {
  constructor(private readonly deps: DestinationServiceDeps) {}

  /** Whether the server offers a kind at all (YouTubeManual never; OAuth kinds with a client; Local with a local server). */
  offers(type: DestinationType): boolean {
    const kind = destinationKinds[type];
    if (!kind.available) return false;
    if (kind.connection === 'local') return this.deps.local !== null;
    if (kind.oauthProvider) return this.deps.platforms[kind.oauthProvider] !== undefined;
    return true;
  }

  async get(user: CurrentUser, projectId: string, destinationId: string): Promise<Destination> {
    await this.deps.assertProjectAccess(user, projectId);
    const row = await this.deps.db.destination.findUnique({ where: { id: destinationId } });
    if (!row || row.projectId !== projectId) throw new OnAirError('NOT_FOUND', DESTINATION_NOT_FOUND);
    return row;
  }

  private async limit(user: CurrentUser, projectId: string) {
    const count = await this.deps.db.destination.count({ where: { projectId } });
    const max = maximumDestinations(user.entitlements);
    const maximum = Number.isFinite(max) ? max : null;
    return { maximum, count, reached: maximum !== null && count >= maximum };
  }

  async list(user: CurrentUser, projectId: string): Promise<DestinationList> {
    await this.deps.assertProjectAccess(user, projectId);
    const [rows, project] = await Promise.all([
      this.deps.db.destination.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      this.deps.db.project.findUnique({ where: { id: projectId }, select: { autoLive: true } }),
    ]);
    return { destinations: rows.map(toView), limit: await this.limit(user, projectId), autoLive: project?.autoLive ?? false };
  }

  async picker(user: CurrentUser, projectId: string): Promise<DestinationPicker> {
    await this.deps.assertProjectAccess(user, projectId);
    const tiles = destinationTypes.map((type) => {
      const kind = destinationKinds[type];
      const locked = !isDestinationTypeAllowed(user.entitlements, type);
      const testMode = kind.oauthProvider !== null && (this.deps.testModePlatforms?.has(kind.oauthProvider) ?? false);
      return {
        type,
        providerId: kind.providerId,
        label: kind.label,
        brandColor: kind.brandColor,
        available: this.offers(type),
        locked,
        upgradeTooltip: locked ? upgradeTooltipFor(type) : null,
        testMode,
      };
    });
    return { tiles, limit: await this.limit(user, projectId) };
  }

  async create(user: CurrentUser, projectId: string, body: CreateDestinationBody): Promise<DestinationView> {
    await this.deps.assertProjectAccess(user, projectId);
    const kind = destinationKinds[body.type];
    if (!this.offers(body.type)) throw new OnAirError('DESTINATION_TYPE_UNAVAILABLE', `${kind.label} destinations are not available on this server.`);
    if (!isDestinationTypeAllowed(user.entitlements, body.type)) {
      // The tile's tooltip is the spec's words; the error says why, for whoever calls the api.
      throw new OnAirError('PLAN_LIMIT_REACHED', `${kind.label} destinations come with Premium. Upgrade to add one.`, {
        rule: 'custom-destinations',
        tooltip: upgradeTooltipFor(body.type),
      });
    }
    const limit = await this.limit(user, projectId);
    if (limit.reached) throw tooManyDestinations(limit.maximum);

    const id = randomUUID();
    const base = { id, projectId, type: body.type, providerId: kind.providerId };
    let data: Prisma.DestinationUncheckedCreateInput;
    switch (body.type) {
      case 'Twitch':
      case 'YouTube':
      case 'Facebook':
        await this.assertTargetFree(projectId, null, body.type === 'Facebook' ? body.settings.streamDestination : undefined);
        data = { ...base, name: kind.label, settings: body.settings };
        break;
      case 'Local': {
        const local = this.deps.local!;
        // A stream name of its own: another project's Local stream is another name on the same server.
        data = { ...base, name: body.name ?? kind.label, rtmpUrl: local.url, ...local.streams.columns(id, newLocalStreamName()) };
        break;
      }
      case 'YouTubeManual':
        data = { ...base, name: body.name, rtmpUrl: kind.ingest.defaultUrl, ...this.deps.secrets.streamKeyColumns(id, body.streamKey) };
        break;
      default: {
        const rtmpUrl = body.rtmpUrl ?? kind.ingest.defaultUrl;
        if (!rtmpUrl)
          throw new OnAirError('VALIDATION_FAILED', 'Enter the server URL.', {
            where: 'body',
            issues: [{ path: ['rtmpUrl'], code: 'custom', message: 'Enter the server URL.' }],
          });
        await assertRtmpAddressAllowed(rtmpUrl, this.deps.rtmpPolicy);
        data = { ...base, name: body.name ?? kind.label, rtmpUrl, ...this.deps.secrets.streamKeyColumns(id, body.streamKey) };
      }
    }
    data.canvas = body.canvas ?? kind.defaultCanvas;
    // The limit is checked again inside the insert's transaction so two concurrent adds cannot both pass it.
    const row = await this.deps.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
      const count = await tx.destination.count({ where: { projectId } });
      if (limit.maximum !== null && count >= limit.maximum) throw tooManyDestinations(limit.maximum);
      return tx.destination.create({ data });
    });
    this.deps.logger.info({ projectId, destinationId: id, type: body.type }, 'destination added');
    await this.emit('Added', row);
    if ('applyMetadataToAll' in body && body.applyMetadataToAll) await this.applyMetadataToAll(row);
    return toView(row);
  }

  async update(user: CurrentUser, projectId: string, destinationId: string, body: UpdateDestinationBody): Promise<DestinationView> {
    const row = await this.get(user, projectId, destinationId);
    const settings = settingsOf(row);
    const nextSettings: DestinationSettings = { ...settings };
    if (body.settings) {
      for (const key of ['title', 'description', 'privacy'] as const) {
        const v = body.settings[key];
        if (v !== undefined) nextSettings[key] = v;
      }
      if (body.settings.streamDestination === null) delete nextSettings.streamDestination;
      else if (body.settings.streamDestination !== undefined) nextSettings.streamDestination = body.settings.streamDestination;
    }
    const data: Prisma.DestinationUncheckedUpdateInput = {};
    if (body.enabled === false) await this.assertNotLastAutoLiveTwitch(row);
    if (body.enabled !== undefined) data.enabled = body.enabled;
    if (body.canvas !== undefined) data.canvas = body.canvas;
    const kind = destinationKinds[row.type];

    // The merged destination must pass the same rules as a new one.
    const merged = this.mergedBody(row, nextSettings, body);
    const parsed = createDestinationBodySchema.safeParse(merged);
    if (!parsed.success) {
      throw new OnAirError('VALIDATION_FAILED', `The destination is not valid: ${parsed.error.issues.map((i) => i.message).join(' ')}`, {
        where: 'body',
        issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), code: i.code, message: i.message })),
      });
    }
    const valid = parsed.data;
    if (valid.type === 'Twitch' || valid.type === 'YouTube' || valid.type === 'Facebook') {
      if (valid.type === 'Facebook') await this.assertTargetFree(projectId, row.id, valid.settings.streamDestination);
      data.settings = valid.settings as Prisma.InputJsonValue;
    } else if (valid.type !== 'Local') {
      if ('name' in valid && valid.name !== undefined) data.name = valid.name;
      if ('rtmpUrl' in valid && valid.rtmpUrl !== undefined && kind.ingest.urlEditable) {
        if (valid.rtmpUrl !== row.rtmpUrl) await assertRtmpAddressAllowed(valid.rtmpUrl, this.deps.rtmpPolicy);
        data.rtmpUrl = valid.rtmpUrl;
      }
      if (body.streamKey !== undefined) Object.assign(data, this.deps.secrets.streamKeyColumns(row.id, body.streamKey));
    } else if (body.name !== undefined) {
      data.name = body.name;
    }
    const updated = await this.deps.db.destination.update({ where: { id: row.id }, data });
    await this.emit('Changed', updated);
    if (body.applyMetadataToAll && kind.metadata) await this.applyMetadataToAll(updated);
    return toView(updated);
  }

  /** The create body this row plus an edit would be; keys stay out (the saved one is kept unless a new one is sent). */
  private mergedBody(row: Destination, settings: DestinationSettings, body: UpdateDestinationBody): Record<string, unknown> {
    const kind = destinationKinds[row.type];
    if (kind.connection === 'oauth') return { type: row.type, settings };
    if (kind.connection === 'local') return { type: row.type, name: body.name ?? row.name };
    const out: Record<string, unknown> = { type: row.type, name: body.name ?? row.name };
    if (row.type !== 'YouTubeManual') out.rtmpUrl = body.rtmpUrl ?? row.rtmpUrl ?? undefined;
    // A required key is satisfied by the saved one when none is sent.
    out.streamKey = body.streamKey ?? (row.streamKeyEnc ? 'saved' : '');
    return out;
  }

  async remove(user: CurrentUser, projectId: string, destinationId: string): Promise<void> {
    const row = await this.get(user, projectId, destinationId);
    await this.assertNotLastAutoLiveTwitch(row);
    await this.deps.db.destination.delete({ where: { id: row.id } });
    this.deps.logger.info({ projectId, destinationId }, 'destination removed');
    await this.deps.events.publish({ type: 'destination.event', projectId, event: 'Removed', destinationId, destination: null });
  }

  /** Spec §5: with Auto Live on, the last enabled Twitch destination stays (the console's feed comes through it). */
  private async assertNotLastAutoLiveTwitch(row: Destination): Promise<void> {
    if (row.type !== 'Twitch' || !row.enabled) return;
    const project = await this.deps.db.project.findUnique({ where: { id: row.projectId }, select: { autoLive: true } });
    if (!project?.autoLive) return;
    const others = await this.deps.db.destination.count({ where: { projectId: row.projectId, type: 'Twitch', enabled: true, NOT: { id: row.id } } });
    if (others === 0) throw new OnAirError('CONFLICT', TWITCH_REQUIRED_TEXT, { rule: 'twitch-required' });
  }

  async emit(event: DestinationEventKind, row: Destination): Promise<void> {
    await this.deps.events.publish({ type: 'destination.event', projectId: row.projectId, event, destinationId: row.id, destination: toView(row) });
  }

  /**
   * Spec §5: a Facebook target (timeline, page, group, event) already used by another Facebook
   * destination of the project cannot be chosen again.
   */
  async assertTargetFree(projectId: string, selfId: string | null, target: { id: string } | undefined): Promise<void> {
    if (!target) return;
    const used = await this.usedFacebookTargets(projectId, selfId);
    if (used.has(target.id)) throw new OnAirError('STREAM_TARGET_IN_USE', undefined, { field: 'settings.streamDestination', targetId: target.id });
  }

  async usedFacebookTargets(projectId: string, exceptId: string | null): Promise<Set<string>> {
    const others = await this.deps.db.destination.findMany({ where: { projectId, type: 'Facebook', ...(exceptId ? { NOT: { id: exceptId } } : {}) } });
    const ids = new Set<string>();
    for (const o of others) {
      const s = settingsOf(o);
      // A destination without a chosen target streams to its owner's timeline.
      const id = s.streamDestination?.id ?? o.platformAccountId;
      if (id) ids.add(id);
    }
    return ids;
  }

  /**
   * 'Apply metadata to all destinations': the title (and the description where the platform has
   * one) go to every other destination of the project that takes metadata, within its own rules:
   * an empty title is not copied to Twitch, which requires one.
   */
  private async applyMetadataToAll(source: Destination): Promise<void> {
    const { title, description } = settingsOf(source);
    const others = await this.deps.db.destination.findMany({ where: { projectId: source.projectId, NOT: { id: source.id } } });
    for (const other of others) {
      const metadata = destinationKinds[other.type].metadata;
      if (!metadata) continue;
      const next: DestinationSettings = { ...settingsOf(other) };
      if (title !== undefined && !(metadata.title === 'required' && title.trim() === '')) next.title = title;
      if (metadata.description && description !== undefined) next.description = description;
      const updated = await this.deps.db.destination.update({ where: { id: other.id }, data: { settings: next as Prisma.InputJsonValue } });
      await this.emit('Changed', updated);
    }
  }
}

/** The plan's destination limit, in words for whoever calls the api; the tile's tooltip (the spec's words) in the details. */
function tooManyDestinations(maximum: number | null): OnAirError {
  return new OnAirError('PLAN_LIMIT_REACHED', `Your plan streams to at most ${maximum} destinations. Upgrade to add more.`, {
    rule: 'maximum-destinations',
    maximum,
    tooltip: UPGRADE_TOOLTIP_MORE_DESTINATIONS,
  });
}
