/**
 * Which charity events are donations to the channel's charity campaign (issue 40 item 7). A
 * campaign is known by its link and name (Settings › Integrations › Charity) and, once a
 * provider names it, by the provider's campaign id. A donation event matches when it carries that
 * id; without an id on either side, when the charity's name or the link's site agree (Twitch's
 * donate event names the charity and its website, not the campaign page).
 */
export function charityDonationMatches(
  campaign: { link: string; name: string; active: boolean; providerId: string | null },
  event: { type: string; data: { charityName?: string | undefined; charityCampaignId?: string | undefined; link?: string | undefined } },
): boolean {
  if (!campaign.active || event.type !== 'charity') return false;
  const id = event.data.charityCampaignId;
  if (campaign.providerId && id) return campaign.providerId === id;
  const name = event.data.charityName?.trim().toLowerCase();
  if (name && name === campaign.name.trim().toLowerCase()) return true;
  const site = (url: string | undefined) => {
    try {
      return url ? new URL(url).hostname.replace(/^www\./, '').toLowerCase() : null;
    } catch {
      return null;
    }
  };
  const eventSite = site(event.data.link);
  return eventSite !== null && eventSite === site(campaign.link);
}
