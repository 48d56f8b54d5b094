import { WebSocket } from 'ws';
import { z } from 'zod';
import type { Logger } from '@onair/runtime';
import { cleanPlatformText, nextBackoff, safeImageUrl, sleep } from '../platforms/connector-kit.ts';
import type { EventsConfig } from './config.ts';
import type { InboundEvent } from '../platforms/inbound.ts';
import { normaliseTwitchEvent, twitchEventSubscriptions } from './twitch-events.ts';

/** What an events connector knows of its channel and how it hands events over. */
export interface EventsConnectorContext {
  destination: { id: string; projectId: string; platformAccountId: string };
  config: EventsConfig & { TWITCH_API_URL: string; TWITCH_EMOTE_URL: string };
  clientId: string;
  logger: Logger;
  /** The destination's token now (refreshed first when it expires soon), and one refresh after a 401. */
  tokens: { current(): Promise<string | null>; refresh(): Promise<string | null> };
  /** Hands events over; resolves once they are stored. */
  onEvents(events: InboundEvent[]): Promise<void>;
  onState(state: 'connecting' | 'connected' | 'reconnecting' | 'error', error?: string): void;
}

const metadataSchema = z.object({
  message_id: z.string().min(1).max(200),
  message_type: z.string(),
  message_timestamp: z.string(),
  subscription_type: z.string().optional(),
});
const sessionSchema = z.object({
  id: z.string().min(1).max(200),
  keepalive_timeout_seconds: z.number().int().nullable().optional(),
  reconnect_url: z.string().nullable().optional(),
});
const subscriptionSchema = z.object({ id: z.string(), type: z.string(), status: z.string().optional() });

/** How many delivered message ids a session remembers to drop Twitch's repeated deliveries. */
const SEEN_MAX = 2000;

interface Socket {
  ws: WebSocket;
  keepaliveMs: number;
  timer: NodeJS.Timeout | null;
  /** Opened at a session_reconnect's URL: its welcome takes the session over, subscriptions and all. */
  takeover: boolean;
}

/**
 * Twitch EventSub over WebSocket for one channel (EventSub's own session handling, on `ws`):
 *
 * - `session_welcome`: a new session creates the feed's subscriptions through Helix (a 401 refreshes
 *   the token once; a type the token has no scope for is logged and left out);
 * - any message resets the keepalive clock; a session silent past keepalive_timeout_seconds (plus a
 *   grace) is dropped and a new one opened, whose subscriptions are created again;
 * - `session_reconnect`: a second socket opens at the reconnect URL while the first keeps
 *   delivering; once the second is welcomed the first is closed (the subscriptions moved with it);
 * - `revocation`: the subscription is forgotten and the reason logged;
 * - `notification`: only for a subscription this session created, once per message id (Twitch
 *   may deliver twice), normalised; a malformed one is logged and skipped.
 */
export class TwitchEventSubConnector {
  private readonly abort = new AbortController();
  private current: Socket | null = null;
  private pendingTakeover: Socket | null = null;
  private sessionId: string | null = null;
  private readonly subscriptions = new Map<string, string>();
  private readonly seen = new Set<string>();
  private readonly avatars = new Map<string, string | null>();
  /** Events go out in the order they came, one batch after the other. */
  private chain: Promise<void> = Promise.resolve();
  private lost: (() => void) | null = null;
  /** Set while a new session's subscriptions are being created: notifications of ids not known yet wait. */
  private subscribing: { socket: Socket; raw: string }[] | null = null;
  /** Whether the channel's authorization holds, is being checked after a revocation, or was taken back. */
  private authorization: 'ok' | 'checking' | 'lost' = 'ok';

  constructor(private readonly ctx: EventsConnectorContext) {}

  private get where() {
    return { destinationId: this.ctx.destination.id, projectId: this.ctx.destination.projectId, platform: 'twitch' };
  }

  start(): void {
    void this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.lost?.();
    for (const s of [this.current, this.pendingTakeover]) if (s) this.closeSocket(s);
    await this.chain.catch(() => undefined);
  }

  /** The subscription ids of the current session (tests look at them). */
  subscriptionIds(): string[] {
    return [...this.subscriptions.keys()];
  }

  private async run(): Promise<void> {
    let backoff = 0;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      this.ctx.onState(backoff === 0 ? 'connecting' : 'reconnecting');
      const url = new URL(this.ctx.config.TWITCH_EVENTSUB_URL);
      url.searchParams.set('keepalive_timeout_seconds', String(this.ctx.config.EVENTSUB_KEEPALIVE_SECONDS));
      const welcomed = await this.connect(url.toString(), false);
      if (signal.aborted) return;
      if (welcomed) {
        backoff = 0;
        // Runs until the session is lost for good (closed, or silent too long).
        await new Promise<void>((resolve) => {
          this.lost = resolve;
        });
        this.lost = null;
        if (signal.aborted) return;
        this.ctx.logger.info({ ...this.where }, 'eventsub session lost; opening a new one');
        this.ctx.onState('reconnecting');
      }
      backoff = nextBackoff(backoff, this.ctx.config.EVENTSUB_RECONNECT_MAX_MS);
      await sleep(welcomed ? Math.min(backoff, 1000) : backoff, signal);
    }
  }

  /** Opens a socket; resolves true once it is welcomed (and, for a new session, subscribed). */
  private connect(url: string, takeover: boolean): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (!settled) {
          settled = true;
          resolve(ok);
        }
      };
      const ws = new WebSocket(url, { handshakeTimeout: 10_000 });
      const socket: Socket = { ws, keepaliveMs: 0, timer: null, takeover };
      if (takeover) this.pendingTakeover = socket;
      else this.current = socket;
      ws.on('message', (data) => {
        void this.onMessage(socket, data.toString(), settle).catch((err: unknown) => {
          this.ctx.logger.warn({ ...this.where, err: (err as Error).message }, 'eventsub message handling failed');
        });
      });
      ws.on('error', (err) => this.ctx.logger.info({ ...this.where, err: err.message }, 'eventsub socket error'));
      ws.on('close', (code) => {
        if (socket.timer) clearTimeout(socket.timer);
        settle(false);
        if (this.pendingTakeover === socket) this.pendingTakeover = null;
        if (this.current === socket) {
          this.current = null;
          // Only the session's own socket closing loses it; the old one of a takeover closes by design.
          if (!this.abort.signal.aborted) this.ctx.logger.info({ ...this.where, code }, 'eventsub socket closed');
          this.lost?.();
        }
      });
    });
  }

  private closeSocket(s: Socket): void {
    if (s.timer) clearTimeout(s.timer);
    s.ws.removeAllListeners('message');
    s.ws.terminate();
  }

  private armKeepalive(s: Socket): void {
    if (s.timer) clearTimeout(s.timer);
    if (s.keepaliveMs <= 0) return;
    s.timer = setTimeout(() => {
      this.ctx.logger.info({ ...this.where, keepaliveMs: s.keepaliveMs }, 'eventsub keepalive missed; the session counts as dead');
      this.closeSocket(s);
      if (this.current === s) {
        this.current = null;
        this.lost?.();
      }
    }, s.keepaliveMs + this.ctx.config.EVENTSUB_KEEPALIVE_GRACE_MS);
    s.timer.unref();
  }

  private async onMessage(s: Socket, raw: string, settle: (ok: boolean) => void): Promise<void> {
    let message: { metadata: z.infer<typeof metadataSchema>; payload: Record<string, unknown> };
    try {
      const parsed = JSON.parse(raw) as { metadata?: unknown; payload?: unknown };
      message = { metadata: metadataSchema.parse(parsed.metadata), payload: z.record(z.string(), z.unknown()).parse(parsed.payload) };
    } catch {
      this.ctx.logger.warn({ ...this.where, length: raw.length }, 'malformed eventsub message ignored');
      this.armKeepalive(s);
      return;
    }
    this.armKeepalive(s);
    const { metadata, payload } = message;
    switch (metadata.message_type) {
      case 'session_welcome': {
        const session = sessionSchema.safeParse(payload.session);
        if (!session.success) {
          this.ctx.logger.warn({ ...this.where }, 'eventsub welcome without a session ignored');
          return;
        }
        s.keepaliveMs = (session.data.keepalive_timeout_seconds ?? this.ctx.config.EVENTSUB_KEEPALIVE_SECONDS) * 1000;
        this.armKeepalive(s);
        if (s.takeover) {
          // The session moved here with its subscriptions: the old socket goes.
          const old = this.current;
          this.current = s;
          this.pendingTakeover = null;
          if (old && old !== s) this.closeSocket(old);
          this.sessionId = session.data.id;
          this.ctx.logger.info({ ...this.where }, 'eventsub session reconnected');
          settle(true);
          return;
        }
        this.sessionId = session.data.id;
        this.subscriptions.clear();
        this.subscribing = [];
        const ok = await this.subscribeAll(session.data.id);
        // Twitch may deliver on a subscription before its creation is answered: those wait until now.
        const waiting = this.subscribing ?? [];
        this.subscribing = null;
        for (const w of waiting) await this.onMessage(w.socket, w.raw, () => undefined);
        if (ok) this.ctx.onState('connected');
        settle(ok);
        if (!ok) this.closeSocket(s);
        return;
      }
      case 'session_keepalive':
        return;
      case 'session_reconnect': {
        const session = sessionSchema.safeParse(payload.session);
        const url = session.success ? session.data.reconnect_url : null;
        if (!url || !/^wss?:\/\//.test(url)) {
          this.ctx.logger.warn({ ...this.where }, 'eventsub reconnect without a usable URL; the session will be replaced');
          return;
        }
        this.ctx.logger.info({ ...this.where }, 'eventsub asked to reconnect');
        const ok = await this.connect(url, true);
        if (!ok && !this.abort.signal.aborted)
          this.ctx.logger.warn({ ...this.where }, 'eventsub reconnect URL failed; keeping the current socket until it closes');
        return;
      }
      case 'revocation': {
        const sub = subscriptionSchema.safeParse(payload.subscription);
        if (!sub.success) return;
        this.subscriptions.delete(sub.data.id);
        this.ctx.logger.warn({ ...this.where, type: sub.data.type, status: sub.data.status }, 'eventsub subscription revoked');
        if (sub.data.status === 'authorization_revoked') {
          // The channel took OnAir's access back (Twitch revokes every subscription at once): one
          // refresh tells whether a sign-in is needed; a refused one leaves the destination needing
          // it, which the studio shows, and the supervisor then stops this connector.
          if (this.authorization !== 'ok') return;
          this.authorization = 'checking';
          const token = await this.ctx.tokens.refresh().catch(() => null);
          this.authorization = token ? 'ok' : 'lost';
          if (!token) {
            this.ctx.onState('error', "Your Twitch account needs sign-in: OnAir's access was revoked.");
            return;
          }
        }
        this.ctx.onState('error', `Twitch stopped sending ${sub.data.type} events (${sub.data.status ?? 'revoked'}).`);
        return;
      }
      case 'notification': {
        const sub = subscriptionSchema.safeParse(payload.subscription);
        if (sub.success && !this.subscriptions.has(sub.data.id) && this.subscribing) {
          this.subscribing.push({ socket: s, raw });
          return;
        }
        if (!sub.success || !this.subscriptions.has(sub.data.id)) {
          this.ctx.logger.warn(
            { ...this.where, subscriptionId: sub.success ? sub.data.id : null },
            'eventsub notification for an unknown subscription ignored',
          );
          return;
        }
        if (this.seen.has(metadata.message_id)) {
          this.ctx.logger.debug({ ...this.where, messageId: metadata.message_id }, 'eventsub repeated delivery dropped');
          return;
        }
        this.seen.add(metadata.message_id);
        if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value!);
        const at = new Date(metadata.message_timestamp);
        const event = normaliseTwitchEvent(sub.data.type, payload.event, {
          messageId: metadata.message_id,
          timestamp: Number.isNaN(at.getTime()) ? new Date() : at,
          emoteBase: this.ctx.config.TWITCH_EMOTE_URL,
          clean: (text) => cleanPlatformText(text, this.ctx.logger, this.where),
        });
        if (!event) {
          this.ctx.logger.warn({ ...this.where, type: sub.data.type, messageId: metadata.message_id }, 'malformed eventsub notification skipped');
          return;
        }
        // Handed over in order; the avatar is looked up on the way (one call per new user).
        this.chain = this.chain
          .then(async () => {
            event.avatar = await this.avatar(event.platformUserId);
            await this.ctx.onEvents([event]);
          })
          .catch((err: unknown) => this.ctx.logger.error({ ...this.where, err }, 'eventsub event not stored'));
        return;
      }
      default:
        this.ctx.logger.info({ ...this.where, type: metadata.message_type }, 'eventsub message of an unknown type ignored');
    }
  }

  private async helix(path: string, init: { method: string; body?: unknown }): Promise<Response> {
    let token = await this.ctx.tokens.current();
    if (!token) throw new HelixError(401, 'no token');
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.ctx.config.TWITCH_API_URL}${path}`, {
        method: init.method,
        headers: { 'client-id': this.ctx.clientId, authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(10_000)]),
      });
      if (res.status !== 401 || attempt > 0) return res;
      await res.body?.cancel();
      token = await this.ctx.tokens.refresh();
      if (!token) throw new HelixError(401, 'token refused');
    }
  }

  /** Creates every subscription of the feed on a new session; false when none could be made. */
  private async subscribeAll(sessionId: string): Promise<boolean> {
    const broadcaster = this.ctx.destination.platformAccountId;
    let made = 0;
    for (const sub of twitchEventSubscriptions) {
      if (this.abort.signal.aborted || this.sessionId !== sessionId) return false;
      try {
        const res = await this.helix('/eventsub/subscriptions', {
          method: 'POST',
          body: { type: sub.type, version: sub.version, condition: sub.condition(broadcaster), transport: { method: 'websocket', session_id: sessionId } },
        });
        const body = (await res.json().catch(() => null)) as { data?: { id?: unknown }[]; message?: unknown } | null;
        if (res.status === 202 && typeof body?.data?.[0]?.id === 'string') {
          this.subscriptions.set(body.data[0].id, sub.type);
          made += 1;
        } else if (res.status === 409) {
          made += 1;
        } else {
          this.ctx.logger.warn(
            { ...this.where, type: sub.type, status: res.status, reason: typeof body?.message === 'string' ? body.message.slice(0, 200) : null },
            'eventsub subscription refused',
          );
        }
      } catch (err) {
        if (err instanceof HelixError) {
          this.ctx.onState('error', 'Your Twitch account requires authentication.');
          return false;
        }
        this.ctx.logger.warn({ ...this.where, type: sub.type, err: (err as Error).message }, 'eventsub subscription failed');
      }
    }
    this.ctx.logger.info({ ...this.where, subscriptions: made }, 'eventsub session subscribed');
    if (made === 0) this.ctx.onState('error', 'Twitch accepted none of the event subscriptions.');
    return made > 0;
  }

  /** A user's Twitch profile picture (Helix users), remembered; null when Twitch gives none. */
  private async avatar(userId: string | null): Promise<string | null> {
    if (!userId) return null;
    if (this.avatars.has(userId)) return this.avatars.get(userId)!;
    let url: string | null = null;
    try {
      const res = await this.helix(`/users?id=${encodeURIComponent(userId)}`, { method: 'GET' });
      if (res.ok) {
        const body = (await res.json()) as { data?: { profile_image_url?: unknown }[] };
        url = safeImageUrl(body.data?.[0]?.profile_image_url);
      } else await res.body?.cancel();
    } catch {
      // No picture: the row shows the type's icon alone.
    }
    if (this.avatars.size > 5000) this.avatars.clear();
    this.avatars.set(userId, url);
    return url;
  }
}

class HelixError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
