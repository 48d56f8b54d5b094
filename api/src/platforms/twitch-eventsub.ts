// Twitch's EventSub catalogue as OnAir reads it: the events connectors subscribe to these, and the
// Twitch login asks for their scopes.
/**
 * The EventSub subscriptions the feed needs, with the scope each asks of the broadcaster's token
 * (the Twitch destination's login asks for all of them).
 */
export const twitchEventSubscriptions = [
  { type: 'channel.follow', version: '2', scope: 'moderator:read:followers', condition: (id: string) => ({ broadcaster_user_id: id, moderator_user_id: id }) },
  { type: 'channel.subscribe', version: '1', scope: 'channel:read:subscriptions', condition: (id: string) => ({ broadcaster_user_id: id }) },
  { type: 'channel.subscription.message', version: '1', scope: 'channel:read:subscriptions', condition: (id: string) => ({ broadcaster_user_id: id }) },
  { type: 'channel.subscription.gift', version: '1', scope: 'channel:read:subscriptions', condition: (id: string) => ({ broadcaster_user_id: id }) },
  { type: 'channel.raid', version: '1', scope: null, condition: (id: string) => ({ to_broadcaster_user_id: id }) },
  { type: 'channel.cheer', version: '1', scope: 'bits:read', condition: (id: string) => ({ broadcaster_user_id: id }) },
  { type: 'channel.charity_campaign.donate', version: '1', scope: 'channel:read:charity', condition: (id: string) => ({ broadcaster_user_id: id }) },
] as const;

/** The scopes a Twitch login asks for so the feed gets every event above. */
export const TWITCH_EVENT_SCOPES = [...new Set(twitchEventSubscriptions.map((s) => s.scope).filter((s): s is NonNullable<typeof s> => s !== null))];
