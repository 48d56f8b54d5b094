import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ChatDoubleBase, json, type TestModeIngest } from './double-http.ts';
import { PIXEL } from './youtube-chat-double.ts';

/**
 * Facebook live comments as the Graph API serves them: `/{owner}/live_videos` filtered to LIVE
 * names the live video, `/{user}/picture?redirect=false` the avatar, and the streaming endpoint
 * `/{video}/live_comments` sends each comment as a server-sent event (`data: {json}`). Graph's
 * error shape; `/oauth/access_token` exchanges a valid token for a new one. The Graph API version
 * is the first path segment (v15.0 by default). Faults: a stream that stalls, one that sends garbage.
 * Live reactions as the streaming endpoint `/{video}/live_reactions?fields=reaction_stream` sends
 * them: a burst of counts by type (`{"reaction_stream":[{"key":"LIKE","value":3}]}`), never who.
 */
export interface FacebookComment {
  id: string;
  message: string;
  from: { id: string; name: string };
  created_time: string;
}

const graphError = (status: number, message: string, code: number) => ({
  error: { message, type: status === 401 ? 'OAuthException' : 'GraphMethodException', code, fbtrace_id: randomBytes(6).toString('hex') },
});

export class FacebookChatDouble extends ChatDoubleBase {
  /** The account whose live video the comments are on (in test mode, the account that signed in last). */
  ownerId = '100000000000001';
  /** Test mode of the one-machine stack: /me, the stream targets and live videos whose stream goes to this machine's RTMP server. */
  ingest: TestModeIngest | null = null;
  /** Live videos created (test mode): target, title, description and privacy as the creator set them. */
  readonly liveVideos: { id: string; targetId: string; title: string; description: string; privacy: string | null }[] = [];
  /** The live video started last (what the controls address when they name no owner). */
  videoId: string | null = null;
  /** Every live video now, with the account it is on: each account's comments and reactions are its own video's. */
  private readonly live = new Map<string, string>();
  readonly comments: FacebookComment[] = [];
  /** Open comment and reaction streams, with the video each reads. */
  private readonly streams = new Map<ServerResponse, string>();
  private readonly reactionStreams = new Map<ServerResponse, string>();
  /** comment_rate and fields of each stream opened. */
  readonly streamsOpened: { videoId: string; commentRate: string | null; fields: string | null }[] = [];

  /** Comment streams open now. A comment reaches only these, as on Facebook: none is kept for a stream opened later. */
  get openStreams(): number {
    return this.streams.size;
  }
  private stalled = false;

  constructor(readonly version = 'v15.0') {
    super('facebook');
    // `owner` (optional): the account whose live video is meant; the video started last otherwise.
    const videoOf = (b: Record<string, unknown>) => (typeof b.owner === 'string' ? this.videoOfOwner(b.owner) : this.videoId);
    this.controls.set('go-live', () => this.goLive());
    this.controls.set('end', () => this.end());
    this.controls.set('comment', (b) =>
      this.comment(String(b.name ?? 'Viewer'), String(b.text ?? ''), b.id === undefined ? undefined : String(b.id), videoOf(b)),
    );
    this.controls.set('garbage', (b) => this.garbage(String(b.data ?? '{not json')));
    this.controls.set('stall', () => {
      this.stalled = true;
    });
    this.controls.set('streams', (b) => {
      const video = videoOf(b);
      return typeof b.owner === 'string' ? [...this.streams.values()].filter((v) => v === video).length : this.streams.size;
    });
    this.controls.set('react', (b) => this.react((b.reactions ?? { LIKE: 1 }) as Record<string, number>, videoOf(b)));
    this.controls.set('reaction-streams', () => this.reactionStreams.size);
  }

  /** A new live video on `ownerId`'s timeline (the double's owner unless told). */
  goLive(ownerId = this.ownerId): string {
    this.videoId = `${Date.now()}${randomBytes(2).readUInt16BE(0)}`;
    this.live.set(this.videoId, ownerId);
    return this.videoId;
  }

  /** Ends the live video started last: its streams close; other accounts' videos go on. */
  end(): void {
    const video = this.videoId;
    this.videoId = null;
    if (video === null) return;
    this.live.delete(video);
    for (const [s, v] of this.streams) if (v === video) s.end();
    for (const [s, v] of this.reactionStreams) if (v === video) s.end();
  }

  /** The live video an account started last. */
  videoOfOwner(ownerId: string): string | null {
    return [...this.live].filter(([, owner]) => owner === ownerId).at(-1)?.[0] ?? null;
  }

  /** A viewer comments: every open stream of the video (the one started last unless told) receives it as an event. */
  comment(name: string, text: string, id?: string, videoId = this.videoId): string {
    const userId = `1000${Buffer.from(name).toString('hex').slice(0, 10)}`;
    const c: FacebookComment = {
      id: id ?? `${videoId}_${randomBytes(6).toString('hex')}`,
      message: text,
      from: { id: userId, name },
      created_time: new Date().toISOString().replace(/\.\d+Z$/, '+0000'),
    };
    this.comments.push(c);
    if (!this.stalled) for (const [s, v] of this.streams) if (v === videoId) s.write(`data: ${JSON.stringify(c)}\n\n`);
    return c.id;
  }

  /** Reaction streams open now. */
  get openReactionStreams(): number {
    return this.reactionStreams.size;
  }

  /** Viewers react: every open reaction stream of the video (the one started last unless told) receives one burst of counts by type. */
  react(reactions: Record<string, number>, videoId = this.videoId): number {
    const burst = { reaction_stream: Object.entries(reactions).map(([key, value]) => ({ key, value: Math.max(0, Math.floor(Number(value) || 0)) })) };
    let reached = 0;
    for (const [s, v] of this.reactionStreams) {
      if (v !== videoId) continue;
      s.write(`data: ${JSON.stringify(burst)}\n\n`);
      reached += 1;
    }
    return reached;
  }

  /** Something that is not a comment on every open stream. */
  garbage(data: string): void {
    for (const s of this.streams.keys()) s.write(`data: ${data}\n\n`);
  }

  protected override onDrop(): void {
    for (const s of this.streams.keys()) s.destroy();
    this.streams.clear();
    for (const s of this.reactionStreams.keys()) s.destroy();
    this.reactionStreams.clear();
    this.stalled = false;
  }

  async start(port = 0): Promise<this> {
    await this.listen((r) => {
      if (r.method === 'GET' && r.path === `/${this.version}/oauth/access_token`) {
        const tokens = this.refresh(Object.fromEntries(r.query));
        if (!tokens) return json(r.res, 400, graphError(400, 'Error validating access token', 190));
        return json(r.res, 200, { access_token: tokens.accessToken, token_type: 'bearer', expires_in: 5_184_000 });
      }
      if (r.method === 'POST' && r.path === `/${this.version}/oauth/access_token`) {
        const tokens = this.refresh(r.body as Record<string, string>);
        if (!tokens) return json(r.res, 400, graphError(400, 'Error validating access token', 190));
        return json(r.res, 200, { access_token: tokens.accessToken, token_type: 'bearer', expires_in: 5_184_000 });
      }
      if (r.path.startsWith('/pictures/')) {
        r.res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
        return;
      }
      const prefix = `/${this.version}/`;
      if (!r.path.startsWith(prefix)) return json(r.res, 400, graphError(400, 'Unknown path components', 2500));
      this.record(r);
      const failure = this.takeFailure(r.method);
      if (failure !== null)
        return json(
          r.res,
          failure,
          graphError(failure, failure === 429 ? 'Application request limit reached' : 'An unexpected error has occurred.', failure === 429 ? 4 : 2),
        );
      if (!r.token || !this.access.has(r.token)) return json(r.res, 401, graphError(401, 'Invalid OAuth access token.', 190));
      const [node, edge] = r.path.slice(prefix.length).split('/');
      if (this.ingest && this.testModeRoute(r.method, node ?? '', edge, r.body, r.token, r.res)) return;
      if (r.method === 'GET' && edge === 'live_videos') {
        // The account's own live video ('me': the account behind the token, a token of nobody the double's owner).
        const owner = node === 'me' ? (this.ownerOf(r.token)?.id ?? this.ownerId) : (node ?? '');
        const video = this.videoOfOwner(owner);
        const status = r.query.get('broadcast_status') ?? '';
        const live = video !== null && status.includes('LIVE');
        return json(r.res, 200, { data: live ? [{ id: video, status: 'LIVE', title: 'Live on OnAir' }] : [] });
      }
      if (r.method === 'GET' && edge === 'picture') {
        if (r.query.get('redirect') !== 'false') return json(r.res, 400, graphError(400, 'Ask with redirect=false for JSON', 100));
        const size = Number(r.query.get('height') ?? 50);
        return json(r.res, 200, {
          data: { height: size, width: Number(r.query.get('width') ?? 50), is_silhouette: false, url: `${this.url}/pictures/${node}.png` },
        });
      }
      if (r.method === 'GET' && edge === 'live_comments') {
        if (!node || !this.live.has(node)) return json(r.res, 400, graphError(400, 'Unsupported get request. Object does not exist.', 100));
        this.streamsOpened.push({ videoId: node, commentRate: r.query.get('comment_rate'), fields: r.query.get('fields') });
        r.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        r.res.write(': ok\n\n');
        this.stalled = false;
        this.streams.set(r.res, node);
        r.res.on('close', () => this.streams.delete(r.res));
        return;
      }
      if (r.method === 'GET' && edge === 'live_reactions') {
        if (!node || !this.live.has(node)) return json(r.res, 400, graphError(400, 'Unsupported get request. Object does not exist.', 100));
        if (r.query.get('fields') !== 'reaction_stream') return json(r.res, 400, graphError(400, 'Ask for fields=reaction_stream', 100));
        r.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        r.res.write(': ok\n\n');
        this.reactionStreams.set(r.res, node);
        r.res.on('close', () => this.reactionStreams.delete(r.res));
        return;
      }
      json(r.res, 400, graphError(400, `Unsupported ${r.method} request.`, 100));
    }, port);
    return this;
  }

  /**
   * The Graph calls of connecting and going live, in test mode: /me is the signed-in account, its
   * only stream target is its timeline (no pages, groups or events), and a live video created on it
   * starts the live comments; its stream URL is this machine's RTMP server with the test key.
   */
  private testModeRoute(method: string, node: string, edge: string | undefined, body: unknown, token: string | null, res: ServerResponse): boolean {
    const owner = this.ownerOf(token);
    if (method === 'GET' && node === 'me' && edge === undefined) {
      if (!owner) json(res, 400, graphError(400, 'An active access token must be used to query information about the current user.', 2500));
      else
        json(res, 200, {
          id: owner.id,
          name: owner.displayName,
          picture: { data: { height: 50, width: 50, is_silhouette: false, url: `${this.url}/pictures/${owner.id}.png` } },
        });
      return true;
    }
    if (method === 'GET' && node === 'me' && (edge === 'accounts' || edge === 'groups' || edge === 'events')) {
      json(res, 200, { data: [], paging: {} });
      return true;
    }
    if (method === 'POST' && edge === 'live_videos') {
      if (!owner || node !== owner.id) {
        json(
          res,
          400,
          graphError(
            400,
            `Unsupported post request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
            100,
          ),
        );
        return true;
      }
      const b = (body ?? {}) as Record<string, string>;
      // A live video of this account's own: another account's comments are on another video.
      const id = this.goLive(owner.id);
      this.ownerId = owner.id;
      this.liveVideos.push({ id, targetId: node, title: b.title ?? '', description: b.description ?? '', privacy: b.privacy ?? null });
      // The account's own key (Facebook gives each live video a stream URL of its owner's).
      const key = this.ingest!.keys.keyOf(owner.id);
      json(res, 200, { id, stream_url: `${this.ingest!.rtmpUrl}/${key}`, secure_stream_url: `${this.ingest!.rtmpUrl}/${key}` });
      return true;
    }
    return false;
  }

  override async close(): Promise<void> {
    for (const s of this.streams.keys()) s.destroy();
    for (const s of this.reactionStreams.keys()) s.destroy();
    await super.close();
  }
}

export async function startFacebookChatDouble(port = 0, version = 'v15.0'): Promise<FacebookChatDouble> {
  return new FacebookChatDouble(version).start(port);
}
