import { z } from 'zod';
import { isEnabled, type Entitlements } from '../plans.ts';
import type { CanvasKind } from '../scene/vertical.ts';

/**
 * Every kind of destination of spec §3, as data: the Add Destination picker, the forms, the api's
 * validation and the OAuth flows all read this one table. `Local` is OnAir's own: the local RTMP
 * server of the one-machine stack, offered only when the operator configured one.
 */
export const destinationTypes = [
  'Facebook',
  'Twitch',
  'YouTube',
  'YouTubeManual',
  'Amazon',
  'DLive',
  'Douyu',
  'Huya',
  'Instagram',
  'LinkedIn',
  'TikTok',
  'Trovo',
  'Vimeo',
  'Wowza',
  'CustomRTMP',
  'Local',
] as const;
export const destinationTypeSchema = z.enum(destinationTypes);
export type DestinationType = z.infer<typeof destinationTypeSchema>;

/** The platforms OnAir connects to through OAuth in a popup (§7 `/auth/{provider}`). */
export const oauthProviders = ['twitch', 'youtube', 'facebook'] as const;
export const oauthProviderSchema = z.enum(oauthProviders);
export type OAuthProvider = z.infer<typeof oauthProviderSchema>;

/** How a destination gets its ingest address: from the platform after OAuth, typed in by the creator, or OnAir's own server. */
export type DestinationConnection = 'oauth' | 'stream-key' | 'local';

/** Which metadata a platform takes from OnAir (spec §5). */
export interface MetadataFields {
  title: 'required' | 'optional';
  description: boolean;
  /** The privacy values the platform accepts, in the order the form lists them. */
  privacy: readonly { value: string; label: string }[];
}

export interface DestinationKind {
  type: DestinationType;
  /** Provider id of spec §3 ("used elsewhere": chat, events, the login provider). */
  providerId: string;
  label: string;
  /** 0xRRGGBB brand colour of the platform. */
  brandColor: string;
  connection: DestinationConnection;
  oauthProvider: OAuthProvider | null;
  /** The ingest OnAir pushes to. `defaultUrl` prefills the form; `urlEditable` lets the creator change it. */
  ingest: { defaultUrl: string | null; urlEditable: boolean; keyLabel: string };
  /** `free`: every plan; `custom-destinations`: needs that entitlement (Premium and VIP). */
  plan: 'free' | 'custom-destinations';
  /** YouTubeManual is listed but not offered (spec §3 "disabled"). */
  available: boolean;
  /** Spec §8: platforms a creator can also sign in with get the log-in wording on delete. */
  loginCapable: boolean;
  metadata: MetadataFields | null;
  /** The canvas a new destination of this kind gets: vertical where the platform is watched on phones first. */
  defaultCanvas: CanvasKind;
}

export const facebookPrivacyOptions = [
  { value: 'EVERYONE', label: 'Everyone' },
  { value: 'FRIENDS_OF_FRIENDS', label: 'Friends of friends' },
  { value: 'ALL_FRIENDS', label: 'Friends' },
  { value: 'SELF', label: 'Self' },
] as const;
export const facebookPrivacySchema = z.enum(['EVERYONE', 'FRIENDS_OF_FRIENDS', 'ALL_FRIENDS', 'SELF']);

export const youtubePrivacyOptions = [
  { value: 'public', label: 'Public' },
  { value: 'unlisted', label: 'Unlisted' },
  { value: 'private', label: 'Private' },
] as const;
export const youtubePrivacySchema = z.enum(['public', 'unlisted', 'private']);

const streamKey = (defaultUrl: string | null, urlEditable = defaultUrl === null) => ({ defaultUrl, urlEditable, keyLabel: 'Stream key' });
const fromPlatform = { defaultUrl: null, urlEditable: false, keyLabel: 'Stream key' };

function keyed(
  type: DestinationType,
  providerId: string,
  label: string,
  brandColor: string,
  defaultUrl: string | null,
  defaultCanvas: CanvasKind = 'horizontal',
): DestinationKind {
  return {
    type,
    providerId,
    label,
    brandColor,
    connection: 'stream-key',
    oauthProvider: null,
    ingest: streamKey(defaultUrl, true),
    plan: 'custom-destinations',
    available: true,
    loginCapable: false,
    metadata: null,
    defaultCanvas,
  };
}

export const destinationKinds: Record<DestinationType, DestinationKind> = {
  Facebook: {
    type: 'Facebook',
    providerId: 'facebook',
    label: 'Facebook',
    brandColor: '#1877F2',
    connection: 'oauth',
    oauthProvider: 'facebook',
    ingest: fromPlatform,
    plan: 'free',
    available: true,
    loginCapable: true,
    metadata: { title: 'optional', description: true, privacy: facebookPrivacyOptions },
    defaultCanvas: 'horizontal',
  },
  Twitch: {
    type: 'Twitch',
    providerId: 'twitchtv',
    label: 'Twitch',
    brandColor: '#9146FF',
    connection: 'oauth',
    oauthProvider: 'twitch',
    ingest: fromPlatform,
    plan: 'free',
    available: true,
    loginCapable: true,
    metadata: { title: 'required', description: false, privacy: [] },
    defaultCanvas: 'horizontal',
  },
  YouTube: {
    type: 'YouTube',
    providerId: 'youtube',
    label: 'YouTube',
    brandColor: '#FF0000',
    connection: 'oauth',
    oauthProvider: 'youtube',
    ingest: fromPlatform,
    plan: 'free',
    available: true,
    loginCapable: true,
    metadata: { title: 'optional', description: true, privacy: youtubePrivacyOptions },
    defaultCanvas: 'horizontal',
  },
  YouTubeManual: {
    type: 'YouTubeManual',
    providerId: 'youtube-manual',
    label: 'YouTube (stream key)',
    brandColor: '#FF0000',
    connection: 'stream-key',
    oauthProvider: null,
    ingest: streamKey('rtmp://a.rtmp.youtube.com/live2', false),
    plan: 'free',
    available: false,
    loginCapable: false,
    metadata: null,
    defaultCanvas: 'horizontal',
  },
  Amazon: keyed('Amazon', 'amazon', 'Amazon Live', '#FF9900', null),
  DLive: keyed('DLive', 'dlive', 'DLive', '#FFD300', 'rtmp://stream.dlive.tv/live'),
  Douyu: keyed('Douyu', 'douyu', 'Douyu', '#FF7700', 'rtmp://sendtc3.douyu.com/live'),
  Huya: keyed('Huya', 'huya', 'Huya', '#FFA200', 'rtmp://al.direct.huya.com/huyalive'),
  Instagram: keyed('Instagram', 'instagram', 'Instagram', '#E4405F', 'rtmps://live-upload.instagram.com:443/rtmp', 'vertical'),
  // TikTok LIVE gives each stream its own server URL and key (LIVE Producer), so there is no default URL.
  TikTok: keyed('TikTok', 'tiktok', 'TikTok', '#000000', null, 'vertical'),
  LinkedIn: keyed('LinkedIn', 'linkedin', 'LinkedIn', '#0A66C2', null),
  Trovo: keyed('Trovo', 'trovo', 'Trovo', '#19D66B', 'rtmp://livepush.trovo.live/live'),
  Vimeo: keyed('Vimeo', 'vimeo', 'Vimeo', '#1AB7EA', 'rtmps://rtmp-global.cloud.vimeo.com:443/live'),
  Wowza: keyed('Wowza', 'wowza', 'Wowza', '#F7931E', null),
  CustomRTMP: keyed('CustomRTMP', 'custom', 'Custom RTMP', '#6B7280', null),
  Local: {
    type: 'Local',
    providerId: 'local',
    label: 'Local preview server',
    brandColor: '#10B981',
    connection: 'local',
    oauthProvider: null,
    ingest: { defaultUrl: null, urlEditable: false, keyLabel: 'Stream key' },
    plan: 'free',
    available: true,
    loginCapable: false,
    metadata: null,
    defaultCanvas: 'horizontal',
  },
};

export function needsPaidPlan(type: DestinationType): boolean {
  return destinationKinds[type].plan === 'custom-destinations';
}

/** Whether the creator's plan lets them add this kind (spec §6: custom destinations beyond the free set need Premium). */
export function isDestinationTypeAllowed(entitlements: Entitlements, type: DestinationType): boolean {
  return !needsPaidPlan(type) || isEnabled(entitlements, 'custom-destinations');
}

/** Spec §8 delete confirmation wording. */
export function removeDestinationText(type: DestinationType): string {
  return destinationKinds[type].loginCapable
    ? "This channel will be removed from your account. You can't use it to log in."
    : 'You will no longer be able to stream to this channel.';
}

/** Spec §8 persistent warning of a destination whose platform account needs (re-)authentication. */
export function requiresAuthenticationText(type: DestinationType): string {
  return `Your ${destinationKinds[type].label} account requires authentication.`;
}

/**
 * The words of a destination whose platform no longer accepts OnAir's access (the creator revoked
 * it at the platform, changed their password, or the grant expired): what stopped, and how to fix it.
 */
export function needsSignInText(type: DestinationType): string {
  return `OnAir's access to your ${destinationKinds[type].label} account was revoked or expired. Chat, events and going live there are paused until you reconnect.`;
}

/** The chat's words for the same (the panel has little room): what to do to read it again. */
export function chatNeedsSignInText(type: DestinationType): string {
  return `your ${destinationKinds[type].label} account needs sign-in to read its chat.`;
}

/** Spec §8 upgrade tooltips: custom RTMP has its own words; any other paid tile, and the plan limit, "Add more destinations". */
export const UPGRADE_TOOLTIP_CUSTOM_RTMP = 'Add Custom RTMP destinations...';
export const UPGRADE_TOOLTIP_MORE_DESTINATIONS = 'Add more destinations';

export function upgradeTooltipFor(type: DestinationType): string {
  return type === 'CustomRTMP' ? UPGRADE_TOOLTIP_CUSTOM_RTMP : UPGRADE_TOOLTIP_MORE_DESTINATIONS;
}

/**
 * Spec §5 and §8: while Auto Live is on, the last enabled Twitch destination cannot be switched
 * off or removed, since the console's game feed arrives through that Twitch channel.
 */
export const TWITCH_REQUIRED_TOOLTIP = 'Twitch required';
export const TWITCH_REQUIRED_TEXT = "Twitch required: You must broadcast to your console's Twitch channel so that we can receive your game feed.";
