import { z } from 'zod';

/**
 * Spec §6: the permission groups an owner gives a collaborator of their channel. Overlay (view,
 * edit), Chatbot (moderation, chat, loyalty), Analytics (stream stats), Creator Site (edit website).
 */
export const permissionGroups = ['overlay.view', 'overlay.edit', 'chatbot.moderation', 'chatbot.chat', 'chatbot.loyalty', 'analytics', 'creator-site'] as const;
export const permissionGroupSchema = z.enum(permissionGroups);
export type PermissionGroup = z.infer<typeof permissionGroupSchema>;

/** How each group reads in the UI and in refusals, with its heading (Overlay, Chatbot…). */
export const permissionGroupLabels: Record<PermissionGroup, { area: string; label: string }> = {
  'overlay.view': { area: 'Overlay', label: 'View overlays' },
  'overlay.edit': { area: 'Overlay', label: 'Edit overlays' },
  'chatbot.moderation': { area: 'Chatbot', label: 'Moderation' },
  'chatbot.chat': { area: 'Chatbot', label: 'Chat' },
  'chatbot.loyalty': { area: 'Chatbot', label: 'Loyalty' },
  analytics: { area: 'Analytics', label: 'Stream stats' },
  'creator-site': { area: 'Creator Site', label: 'Edit website' },
};

/**
 * Everything that can be done on a channel, and who may: the owner always; a collaborator when
 * they hold the named group ('any group' = any accepted collaborator; 'owner' = the owner only).
 * Every partner endpoint on a channel names one capability and the api checks it before the
 * handler runs, so a later partner area (chatbot, overlays, money, campaigns) plugs in by adding
 * its capabilities here.
 */
export const channelCapabilities = {
  'view channel': 'any group',
  'view stream stats': 'analytics',
  'manage collaborators': 'owner',
  // The chatbot (issue 22): any collaborator sees the page; each section is edited with its group.
  'view chatbot': 'any group',
  'connect chatbot': 'owner',
  'edit chatbot moderation': 'chatbot.moderation',
  'edit chatbot chat': 'chatbot.chat',
  'edit chatbot loyalty': 'chatbot.loyalty',
  // Editing an overlay includes seeing it: either Overlay group lets a collaborator view.
  'view overlays': ['overlay.view', 'overlay.edit'],
  'edit overlays': 'overlay.edit',
  'edit creator site': 'creator-site',
  /** Tips, payouts, transactions, charity: the owner's money; no group of §6 grants it. */
  'manage money': 'owner',
  'view statistics': 'analytics',
} as const satisfies Record<string, CapabilityNeed>;
/** One group, any of several groups, any group at all, or the owner alone. */
type CapabilityNeed = PermissionGroup | readonly PermissionGroup[] | 'any group' | 'owner';
export type ChannelCapability = keyof typeof channelCapabilities;

/** What the caller is on a channel: its owner, or a collaborator holding these groups. */
export type ChannelRole = { kind: 'owner' } | { kind: 'collaborator'; groups: readonly PermissionGroup[] };

export function channelAllows(role: ChannelRole, capability: ChannelCapability): boolean {
  const needs: CapabilityNeed = channelCapabilities[capability];
  if (role.kind === 'owner') return true;
  if (needs === 'owner') return false;
  if (needs === 'any group') return role.groups.length > 0;
  if (typeof needs !== 'string') return needs.some((g) => role.groups.includes(g));
  return role.groups.includes(needs);
}

/** Words for a refusal: "Your access to this channel does not include {words}." */
export function capabilityWords(capability: ChannelCapability): string {
  const needs: CapabilityNeed = channelCapabilities[capability];
  if (needs === 'owner') return 'this: only the channel owner can do it';
  if (needs === 'any group') return 'this channel';
  if (typeof needs !== 'string') return needs.map((g) => `${permissionGroupLabels[g].area} (${permissionGroupLabels[g].label})`).join(' or ');
  const { area, label } = permissionGroupLabels[needs];
  return `${area} (${label})`;
}
