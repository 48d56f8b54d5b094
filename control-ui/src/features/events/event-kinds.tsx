import { Coins, Gem, Gift, HandHeart, Heart, HelpCircle, Repeat, Star, Swords, ThumbsUp, Tv, AtSign } from 'lucide-react';
import type { ReactNode } from 'react';
import { liveEventTypes, UNSUPPORTED_EVENT_TEXT, type KnownLiveEventType, type LiveEvent } from '@onair/protocol';

export interface EventKind {
  /** The event name a row shows. */
  name: string;
  /** Spec §9: event colours are per type. */
  color: string;
  icon: (size: number) => ReactNode;
}

export const EVENT_KINDS: Record<KnownLiveEventType, EventKind> = {
  follow: { name: 'Follow', color: '#E0457B', icon: (s) => <Heart size={s} /> },
  sub: { name: 'Subscription', color: '#9146FF', icon: (s) => <Star size={s} /> },
  resub: { name: 'Resubscription', color: '#6D5BD0', icon: (s) => <Repeat size={s} /> },
  host: { name: 'Host', color: '#2E8FD6', icon: (s) => <Tv size={s} /> },
  twitchRaid: { name: 'Raid', color: '#E8891C', icon: (s) => <Swords size={s} /> },
  twitchCheer: { name: 'Cheer', color: '#13A89E', icon: (s) => <Gem size={s} /> },
  tweet: { name: 'Tweet', color: '#1D9BF0', icon: (s) => <AtSign size={s} /> },
  tip: { name: 'Tip', color: '#2FA866', icon: (s) => <Coins size={s} /> },
  charity: { name: 'Charity donation', color: '#E4572E', icon: (s) => <HandHeart size={s} /> },
  facebookReactions: { name: 'Reactions', color: '#1877F2', icon: (s) => <ThumbsUp size={s} /> },
};

/** Facebook's reaction types in the words of its buttons. */
const REACTION_WORDS: Record<string, string> = { LIKE: 'Like', LOVE: 'Love', CARE: 'Care', HAHA: 'Haha', WOW: 'Wow', SAD: 'Sad', ANGRY: 'Angry' };

const UNSUPPORTED: EventKind = { name: UNSUPPORTED_EVENT_TEXT, color: '#7A8194', icon: (s) => <HelpCircle size={s} /> };
const GIFT: EventKind = { ...EVENT_KINDS.sub, name: 'Gift subscription', icon: (s) => <Gift size={s} /> };

export function isKnownType(type: string): type is KnownLiveEventType {
  return (liveEventTypes as readonly string[]).includes(type);
}

export function kindOf(event: Pick<LiveEvent, 'type' | 'data'>): EventKind {
  if (!isKnownType(event.type)) return UNSUPPORTED;
  if (event.type === 'sub' && event.data.gifted) return GIFT;
  return EVENT_KINDS[event.type];
}

function money(amount: number, currency: string | undefined): string {
  if (!currency) return amount.toFixed(2);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The line under the name: months, viewers, bits, amounts, gifts (spec §3 `value` and `data`). */
export function detailOf(event: LiveEvent): string | null {
  const v = event.value;
  switch (event.type) {
    case 'sub':
      if (event.data.gifter && event.data.giftCount)
        return `Gifted ${plural(event.data.giftCount, 'sub', 'subs')}${event.data.giftedMonths ? ` · ${plural(event.data.giftedMonths, 'month', 'months')}` : ''}`;
      if (event.data.gifted) return event.data.gifter ? `Gift from ${event.data.gifter.platformUsername}` : 'Gifted sub';
      return null;
    case 'resub':
      return v !== null ? plural(v, 'month', 'months') : null;
    case 'twitchRaid':
    case 'host':
      return v !== null ? plural(v, 'viewer', 'viewers') : null;
    case 'twitchCheer':
      return v !== null ? plural(v, 'bit', 'bits') : null;
    case 'tip':
      return v !== null ? money(v, event.data.currency) : null;
    case 'charity':
      return v !== null ? `${money(v, event.data.currency)}${event.data.charityName ? ` to ${event.data.charityName}` : ''}` : null;
    case 'facebookReactions': {
      const parts = Object.entries(event.data.reactions ?? {})
        .sort((a, b) => b[1] - a[1])
        .map(([type, n]) => `${n} ${REACTION_WORDS[type] ?? type.toLowerCase()}`);
      return parts.length > 0 ? parts.join(' · ') : v !== null ? plural(v, 'reaction', 'reactions') : null;
    }
    default:
      return null;
  }
}
