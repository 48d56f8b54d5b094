import {
  destinationKinds,
  STREAM_LIMIT_WARNING_SECONDS,
  validateDestinationForm,
  type BroadcastView,
  type CanvasKind,
  type CreateDestinationInput,
  type DestinationOutput,
  type DestinationType,
  type DestinationView,
  type EncoderSettings,
  type UpdateDestinationBody,
} from '@onair/protocol';

/** The values of the Add/Edit form, as typed; strings throughout. */
export interface DestinationFormValues {
  name: string;
  rtmpUrl: string;
  streamKey: string;
  title: string;
  description: string;
  privacy: string;
  applyMetadataToAll: boolean;
  /** Which canvas the destination gets (issue 20); its platform's default for a new one. */
  canvas: CanvasKind;
}

export type DestinationField = 'name' | 'rtmpUrl' | 'streamKey' | 'title' | 'description' | 'privacy' | 'applyMetadataToAll' | 'canvas';

/** Which fields the form shows for a kind (spec §2 "per-platform fields"). */
export function formFields(type: DestinationType): DestinationField[] {
  const kind = destinationKinds[type];
  if (kind.connection === 'oauth') {
    const m = kind.metadata!;
    return ['title', ...(m.description ? (['description'] as const) : []), ...(m.privacy.length > 0 ? (['privacy'] as const) : []), 'applyMetadataToAll'];
  }
  if (kind.connection === 'local') return ['name'];
  if (type === 'YouTubeManual') return ['name', 'streamKey'];
  return ['name', 'rtmpUrl', 'streamKey'];
}

export function initialFormValues(type: DestinationType, existing?: DestinationView): DestinationFormValues {
  const kind = destinationKinds[type];
  const s = existing?.settings ?? {};
  return {
    name: existing?.name ?? (type === 'CustomRTMP' || type === 'YouTubeManual' ? '' : kind.label),
    rtmpUrl: existing?.rtmpUrl ?? kind.ingest.defaultUrl ?? '',
    // A saved key is never sent back: the field starts empty and stays as saved unless typed in.
    streamKey: '',
    title: s.title ?? '',
    description: s.description ?? '',
    privacy: s.privacy ?? kind.metadata?.privacy[0]?.value ?? '',
    applyMetadataToAll: false,
    canvas: existing?.canvas ?? kind.defaultCanvas,
  };
}

/** The create body of the form's values (the shape the api validates). */
export function toCreateBody(type: DestinationType, v: DestinationFormValues): CreateDestinationInput {
  return { ...createBodyOf(type, v), canvas: v.canvas };
}

function createBodyOf(type: DestinationType, v: DestinationFormValues): CreateDestinationInput {
  switch (type) {
    case 'Twitch':
      return { type, settings: { title: v.title }, applyMetadataToAll: v.applyMetadataToAll };
    case 'YouTube':
      return { type, settings: { title: v.title, description: v.description, privacy: v.privacy as 'public' }, applyMetadataToAll: v.applyMetadataToAll };
    case 'Facebook':
      return { type, settings: { title: v.title, description: v.description, privacy: v.privacy as 'EVERYONE' }, applyMetadataToAll: v.applyMetadataToAll };
    case 'Local':
      return { type, name: v.name };
    case 'YouTubeManual':
      return { type, name: v.name, streamKey: v.streamKey };
    case 'CustomRTMP':
      return { type, name: v.name, rtmpUrl: v.rtmpUrl, streamKey: v.streamKey };
    default:
      return { type, name: v.name, rtmpUrl: v.rtmpUrl, streamKey: v.streamKey };
  }
}

/** The edit body: settings for platform kinds; name, URL and (only when typed) the key for the others. */
export function toUpdateBody(type: DestinationType, v: DestinationFormValues): UpdateDestinationBody {
  return { ...updateBodyOf(type, v), canvas: v.canvas };
}

function updateBodyOf(type: DestinationType, v: DestinationFormValues): UpdateDestinationBody {
  const kind = destinationKinds[type];
  if (kind.connection === 'oauth') {
    const settings: NonNullable<UpdateDestinationBody['settings']> = { title: v.title };
    if (kind.metadata?.description) settings.description = v.description;
    if ((kind.metadata?.privacy.length ?? 0) > 0) settings.privacy = v.privacy;
    return { settings, applyMetadataToAll: v.applyMetadataToAll };
  }
  if (kind.connection === 'local') return { name: v.name };
  return { name: v.name, ...(kind.ingest.urlEditable ? { rtmpUrl: v.rtmpUrl } : {}), ...(v.streamKey !== '' ? { streamKey: v.streamKey } : {}) };
}

/** The messages under the fields, from the same rules the api applies (spec §5). */
export function formErrors(type: DestinationType, v: DestinationFormValues, editing: DestinationView | null): Partial<Record<DestinationField, string>> {
  const body = toCreateBody(type, v) as Record<string, unknown>;
  // Editing keeps the saved key when the field is left empty.
  if (editing?.streamKeyMasked && v.streamKey === '' && 'streamKey' in body) body.streamKey = 'saved';
  const out: Partial<Record<DestinationField, string>> = {};
  for (const e of validateDestinationForm(body)) {
    const field = (e.field.startsWith('settings.') ? e.field.slice('settings.'.length) : e.field) as DestinationField;
    out[field] ??= e.message;
  }
  return out;
}

/** Spec §5: with Auto Live on, the last enabled Twitch destination can be neither switched off nor removed. */
export function isTwitchRequired(destination: DestinationView, all: readonly DestinationView[], autoLive: boolean): boolean {
  return autoLive && destination.type === 'Twitch' && destination.enabled && all.filter((d) => d.type === 'Twitch' && d.enabled).length === 1;
}

/** Spec §2: the list's enabled/total counter. */
export function counterText(destinations: readonly DestinationView[]): string {
  return `${destinations.filter((d) => d.enabled).length}/${destinations.length}`;
}

export type HealthLight = 'off' | 'connecting' | 'live' | 'reconnecting' | 'failed';

/** The status light of a destination: off unless it is enabled and a broadcast reports it. */
export function healthLight(destination: DestinationView, output: DestinationOutput | undefined, live: boolean): HealthLight {
  if (!live || !destination.enabled || !output) return 'off';
  if (output.state === 'stopped') return 'off';
  return output.state;
}

export function formatBitrate(kbps: number): string {
  return kbps >= 1000 ? `${(kbps / 1000).toFixed(1)} Mbps` : `${Math.round(kbps)} kbps`;
}

/** The broadcast timer: H:MM:SS. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** The warning before the plan's stream-duration limit ends the broadcast; null until it is near. */
export function streamLimitWarning(endsAt: string | null, now: number): string | null {
  if (!endsAt) return null;
  const left = new Date(endsAt).getTime() - now;
  if (left > STREAM_LIMIT_WARNING_SECONDS * 1000 || left <= 0) return null;
  const minutes = Math.ceil(left / 60_000);
  return `Your plan's stream limit ends this broadcast in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * What the studio says while the session's encoder is stepped down because its server ran short
 * of CPU (null while it encodes as planned): a faster preset first, then a smaller picture.
 */
export function encoderNotice(encoder: EncoderSettings | null | undefined): string | null {
  if (!encoder || encoder.step === 0) return null;
  return 'The streaming server is busy: your stream is encoded with a faster setting (slightly softer picture) to keep 30 fps. It returns to normal when the server has room.';
}

/**
 * While the api counts the broadcast as live but no media worker runs the session yet (every
 * worker full, room.waiting): said under the timer, so it does not pass for air time.
 */
export function notOnAirNotice(state: BroadcastView['state'] | undefined, waitingForWorker: boolean): string | null {
  if (!waitingForWorker || (state !== 'starting' && state !== 'live')) return null;
  return 'Not on air yet: every media worker is busy. Your destinations start as soon as one takes the show.';
}
