import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Redis } from 'ioredis';
import { WebSocket, WebSocketServer } from 'ws';
import {
  alertEventTypes,
  alertValues,
  charityDonationMatches,
  chatChannels,
  eventChannels,
  liveEventSchema,
  overlayChannels,
  renderAlertText,
  triggerAllowed,
  chatMessageSchema,
  type AlertEventType,
  type LiveEvent,
  type OverlayChat,
  type OverlayEvent,
  type OverlayFeedMessage,
  type OverlaySponsor,
  CAMPAIGN_LINK_PATH,
  sponsorImpressionPath,
  type WidgetOf,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { readOverlay, type OverlayService, type StoredOverlay } from './overlay-service.ts';
import { toWire } from '../events/events-store.ts';

/** `/overlay/o/{id}/ws`: an overlay page's live feed. */
const FEED_PATH = /^\/overlay\/o\/([0-9a-f-]{36})\/ws$/;
const RECENT_EVENTS = 10;
const RECENT_CHAT = 20;
const PING_MS = 20_000;
/** How often open pages look for projects their channel made since they opened (a new studio's events count at once after). */
const PROJECTS_REFRESH_MS = 5_000;
const ALERT_TYPES = new Set<string>(alertEventTypes);

export function isOverlayFeedPath(path: string): boolean {
  return FEED_PATH.test(path);
}

/** Amounts of a currency in its minor units (cents; yen have none). */
export function minorUnits(amount: number, currency: string): number {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: cents, as most currencies.
  }
  return Math.round(amount * 10 ** digits);
}

/** What the recent events list shows of an event: who, and the alert text of its type with the default words. */
function eventLine(e: LiveEvent): OverlayEvent {
  const v = alertValues(e);
  const words: Record<string, string> = {
    follow: 'followed',
    sub: 'subscribed',
    resub: `resubscribed (${v.months ?? ''} months)`,
    twitchRaid: `raided with ${v.viewers ?? ''}`,
    twitchCheer: `cheered ${v.bits ?? ''} bits`,
    tip: `tipped ${v.amount ?? ''}`,
    charity: `donated ${v.amount ?? ''}`,
  };
  return { id: e.id, type: e.type, username: e.platformUsername, text: words[e.type] ?? e.type };
}

interface Viewer {
  socket: WebSocket;
  overlay: StoredOverlay;
  projectIds: string[];
}

/**
 * The live feed of open overlay pages, on one api replica: each page's WebSocket, authenticated by
 * the overlay's key in its address (the page has no session), gets the overlay's state, then the
 * alerts, events, chat and goal progress of the channel's projects as they are published on Redis
 * by whichever replica stored them. Everything sent is data; the page shows every text as text.
 */
export class OverlayFeed {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  private readonly viewers = new Set<Viewer>();
  private readonly byChannel = new Map<string, Set<Viewer>>();
  private subscriber: Redis | null = null;
  private readonly ping: NodeJS.Timeout;
  private readonly refresh: NodeJS.Timeout;

  constructor(private readonly deps: { db: Db; redis: Redis; logger: Logger; overlays: OverlayService; publicUrl: string }) {
    this.ping = setInterval(() => {
      for (const v of this.viewers) v.socket.ping();
    }, PING_MS);
    this.ping.unref();
    this.refresh = setInterval(
      () => void this.refreshProjects().catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'overlay projects refresh failed')),
      PROJECTS_REFRESH_MS,
    );
    this.refresh.unref();
  }

  /** A channel's projects made after its pages opened: their events and chat are followed from now on. */
  private async refreshProjects(): Promise<void> {
    const channels = new Set([...this.viewers].map((v) => v.overlay.channelId));
    for (const channelId of channels) {
      const ids = (await this.deps.db.project.findMany({ where: { ownerId: channelId }, select: { id: true } })).map((p) => p.id);
      for (const v of this.viewers) {
        if (v.overlay.channelId !== channelId) continue;
        const added = ids.filter((id) => !v.projectIds.includes(id));
        if (added.length === 0) continue;
        this.remove(v, false);
        v.projectIds = ids;
        this.add(v);
      }
    }
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://overlay.invalid');
      const match = FEED_PATH.exec(url.pathname);
      if (!match) return;
      void this.open(req, socket, head, match[1]!, url.searchParams.get('key')).catch((err: unknown) => {
        this.deps.logger.warn({ err: (err as Error).message }, 'overlay feed upgrade failed');
        socket.end('HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      });
    });
  }

  private async open(req: IncomingMessage, socket: Duplex, head: Buffer, overlayId: string, key: string | null): Promise<void> {
    const overlay = await this.deps.overlays.findByKey(overlayId, key);
    if (!overlay) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const projectIds = (await this.deps.db.project.findMany({ where: { ownerId: overlay.channelId }, select: { id: true } })).map((p) => p.id);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const viewer: Viewer = { socket: ws, overlay, projectIds };
      this.add(viewer);
      ws.on('close', () => this.remove(viewer));
      ws.on('error', () => undefined);
      // The page only listens; anything it sends is ignored.
      void this.sendState(viewer);
    });
  }

  private channels(v: Viewer): string[] {
    return [overlayChannels.overlay(v.overlay.id), ...v.projectIds.flatMap((p) => [eventChannels.project(p), chatChannels.project(p)])];
  }

  private add(v: Viewer): void {
    this.viewers.add(v);
    const sub = this.ensureSubscriber();
    for (const channel of this.channels(v)) {
      let set = this.byChannel.get(channel);
      if (!set) {
        set = new Set();
        this.byChannel.set(channel, set);
        void sub.subscribe(channel).catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'overlay feed subscribe failed'));
      }
      set.add(v);
    }
  }

  private remove(v: Viewer, closing = true): void {
    this.viewers.delete(v);
    for (const channel of this.channels(v)) {
      const set = this.byChannel.get(channel);
      set?.delete(v);
      if (set && set.size === 0) {
        this.byChannel.delete(channel);
        void this.subscriber?.unsubscribe(channel).catch(() => undefined);
      }
    }
    if (closing && this.viewers.size === 0) {
      this.subscriber?.disconnect();
      this.subscriber = null;
    }
  }

  private ensureSubscriber(): Redis {
    if (this.subscriber) return this.subscriber;
    const sub = this.deps.redis.duplicate();
    sub.on('error', (err: Error) => this.deps.logger.warn({ err: err.message }, 'redis overlay subscriber connection error'));
    sub.on(
      'message',
      (channel: string, raw: string) =>
        void this.onMessage(channel, raw).catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'overlay feed message failed')),
    );
    this.subscriber = sub;
    return sub;
  }

  private send(v: Viewer, message: OverlayFeedMessage): void {
    if (v.socket.readyState === WebSocket.OPEN) v.socket.send(JSON.stringify(message));
  }

  private async onMessage(channel: string, raw: string): Promise<void> {
    const viewers = [...(this.byChannel.get(channel) ?? [])];
    if (viewers.length === 0) return;
    if (channel.startsWith('onair:overlays:')) {
      for (const v of viewers) await this.reload(v, raw === 'closed');
      return;
    }
    const parsed = JSON.parse(raw) as { type?: string; events?: unknown[]; messages?: unknown[] };
    if (parsed.type === 'events.new' && Array.isArray(parsed.events)) {
      const events = parsed.events.flatMap((e) => {
        const r = liveEventSchema.safeParse(e);
        return r.success ? [r.data] : [];
      });
      for (const v of viewers) await this.onEvents(v, events);
    } else if (parsed.type === 'chat.messages' && Array.isArray(parsed.messages)) {
      const messages = parsed.messages.flatMap((m) => {
        const r = chatMessageSchema.safeParse(m);
        return r.success && r.data.direction === 'inbound' && !r.data.private ? [r.data] : [];
      });
      for (const v of viewers) {
        const shown = await this.allowedChat(
          v,
          messages.map((m) => ({ id: m.id, username: m.displayName, text: m.content })),
        );
        if (shown.length > 0) this.send(v, { type: 'overlay.chat', messages: shown });
      }
    }
  }

  /** An edited overlay redraws; a deleted one, or one whose key was rotated, goes blank and its socket closes. */
  private async reload(v: Viewer, maybeClosed: boolean): Promise<void> {
    const row = await this.deps.db.overlay.findUnique({ where: { id: v.overlay.id } });
    const next = row ? readOverlay(row) : null;
    if (!next || (maybeClosed && next.keySalt !== v.overlay.keySalt)) {
      this.send(v, { type: 'overlay.closed' });
      v.socket.close(4404, 'overlay closed');
      return;
    }
    v.overlay = next;
    await this.sendState(v);
  }

  private widgets<K extends 'alertBox' | 'goalBar' | 'recentEvents' | 'chatBox'>(v: Viewer, kind: K): WidgetOf<K>[] {
    return v.overlay.widgets.filter((w): w is WidgetOf<K> => w.kind === kind);
  }

  private async onEvents(v: Viewer, events: LiveEvent[]): Promise<void> {
    for (const box of this.widgets(v, 'alertBox')) {
      for (const e of events) {
        if (!ALERT_TYPES.has(e.type)) continue;
        const template = box.alerts[e.type as AlertEventType];
        if (!template.enabled) continue;
        this.send(v, {
          type: 'overlay.alert',
          widgetId: box.id,
          alert: { id: e.id, type: e.type, text: renderAlertText(template.message, alertValues(e)), durationMs: box.durationMs },
        });
      }
    }
    const lines = events.filter((e) => ALERT_TYPES.has(e.type)).map(eventLine);
    if (lines.length > 0) this.send(v, { type: 'overlay.events', events: lines });
    if (this.widgets(v, 'goalBar').length > 0) this.send(v, { type: 'overlay.goals', goals: await this.goals(v) });
  }

  /**
   * Goal bar progress: followers, subs (a gift of n counts n), tips in the goal's currency (minor
   * units), or the donations to the channel's active charity campaign in the goal's currency
   * (charity events matched to the campaign: charityDonationMatches), since the goal's start.
   */
  async goals(v: Viewer): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    const goals = this.widgets(v, 'goalBar');
    const campaign = goals.some((g) => g.metric === 'charity')
      ? await this.deps.db.charityCampaign.findUnique({ where: { channelId: v.overlay.channelId } })
      : null;
    for (const goal of goals) {
      const types = goal.metric === 'followers' ? ['follow'] : goal.metric === 'subs' ? ['sub', 'resub'] : goal.metric === 'charity' ? ['charity'] : ['tip'];
      if (goal.metric === 'charity' && !campaign?.active) {
        out[goal.id] = 0;
        continue;
      }
      const rows = await this.deps.db.liveEvent.findMany({
        where: { projectId: { in: v.projectIds }, type: { in: types }, platformCreatedAt: { gte: new Date(goal.since) }, replay: false, suppressed: false },
        select: { type: true, value: true, data: true },
      });
      let total = 0;
      for (const r of rows) {
        const data = (r.data ?? {}) as { giftCount?: number; currency?: string; charityName?: string; charityCampaignId?: string; link?: string };
        if (goal.metric === 'followers') total += 1;
        else if (goal.metric === 'subs') total += r.type === 'sub' && typeof data.giftCount === 'number' ? data.giftCount : 1;
        else if (goal.metric === 'charity' && (!campaign || !charityDonationMatches(campaign, { type: r.type, data }))) continue;
        else if (r.value !== null && (data.currency ?? '').toUpperCase() === goal.currency) total += minorUnits(r.value, goal.currency);
      }
      out[goal.id] = total;
    }
    return out;
  }

  /** Spec §6 trigger access: only allowed viewers put their chat on the overlay (subscribers: a sub or resub of theirs in the channel's events). */
  private async allowedChat(v: Viewer, messages: OverlayChat[]): Promise<OverlayChat[]> {
    if (messages.length === 0 || this.widgets(v, 'chatBox').length === 0) return [];
    const access = v.overlay.triggerAccess;
    let subscribers = new Set<string>();
    if (access.mode === 'subscribers') {
      const names = [...new Set(messages.map((m) => m.username))];
      const subs = await this.deps.db.liveEvent.findMany({
        where: { projectId: { in: v.projectIds }, type: { in: ['sub', 'resub'] }, platformUsername: { in: names, mode: 'insensitive' } },
        select: { platformUsername: true },
      });
      subscribers = new Set(subs.map((s) => s.platformUsername.toLowerCase()));
    }
    return messages.filter((m) => triggerAllowed(access, { username: m.username, subscriber: subscribers.has(m.username.toLowerCase()) }));
  }

  private async sendState(v: Viewer): Promise<void> {
    const events =
      v.projectIds.length === 0
        ? []
        : await this.deps.db.liveEvent.findMany({
            where: { projectId: { in: v.projectIds }, type: { in: [...alertEventTypes] }, replay: false, suppressed: false },
            orderBy: { platformCreatedAt: 'desc' },
            take: RECENT_EVENTS,
          });
    const chat =
      v.projectIds.length === 0
        ? []
        : await this.deps.db.chatMessage.findMany({
            where: { projectId: { in: v.projectIds }, direction: 'inbound', private: false },
            orderBy: { sentAt: 'desc' },
            take: RECENT_CHAT,
            select: { id: true, displayName: true, content: true },
          });
    const shownChat = await this.allowedChat(
      v,
      chat.reverse().map((m) => ({ id: m.id, username: m.displayName, text: m.content })),
    );
    this.send(v, {
      type: 'overlay.state',
      widgets: v.overlay.widgets,
      goals: await this.goals(v),
      events: events.reverse().map((e) => eventLine(toWire(e))),
      chat: shownChat,
      sponsors: await this.sponsors(v),
    });
  }

  /** What each sponsor widget shows: only campaigns the channel takes part in (accepted or claimed), with its newest promo code and tracked link. */
  private async sponsors(v: Viewer): Promise<Record<string, OverlaySponsor>> {
    const widgets = v.overlay.widgets.filter((w): w is WidgetOf<'sponsor'> => w.kind === 'sponsor' && w.campaignId !== null);
    if (widgets.length === 0) return {};
    const applications = await this.deps.db.campaignApplication.findMany({
      where: { creatorId: v.overlay.channelId, campaignId: { in: widgets.map((w) => w.campaignId!) }, status: { in: ['accepted', 'claimed'] } },
      select: {
        campaignId: true,
        campaign: { select: { name: true, game: true } },
        link: { select: { slug: true } },
        promoCodes: { select: { code: true, discountPercent: true }, orderBy: { createdAt: 'desc' }, take: 1 },
      },
    });
    const shown: Record<string, OverlaySponsor> = {};
    for (const w of widgets) {
      const a = applications.find((x) => x.campaignId === w.campaignId);
      if (!a) continue;
      const code = a.promoCodes[0] ?? null;
      shown[w.id] = {
        campaignName: a.campaign.name,
        game: a.campaign.game,
        code: code?.code ?? null,
        discountPercent: code?.discountPercent ?? null,
        link: a.link ? `${this.deps.publicUrl}${CAMPAIGN_LINK_PATH.replace(':slug', encodeURIComponent(a.link.slug))}` : null,
        impressionPath: a.link ? sponsorImpressionPath(a.link.slug, 'overlay') : null,
      };
    }
    return shown;
  }

  async close(): Promise<void> {
    clearInterval(this.ping);
    clearInterval(this.refresh);
    for (const v of this.viewers) v.socket.close(1001, 'server shutting down');
    this.viewers.clear();
    this.byChannel.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
