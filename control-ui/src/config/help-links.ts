export interface HelpLink {
  id: 'help-centre' | 'tutorials' | 'community';
  label: string;
  href: string;
}

type HelpLinkSettings = Partial<Record<'VITE_HELP_CENTRE_URL' | 'VITE_TUTORIALS_URL' | 'VITE_COMMUNITY_URL', string | undefined>>;

/**
 * Spec §2: the user menu links to a help centre, tutorial videos and a community chat. OnAir is
 * self-hosted, so each operator points these at their own pages; links that are not set are not
 * shown rather than pointing somewhere made up.
 */
export function helpLinksFrom(settings: HelpLinkSettings): HelpLink[] {
  const candidates: Array<[HelpLink['id'], string, string | undefined]> = [
    ['help-centre', 'Help Centre', settings.VITE_HELP_CENTRE_URL],
    ['tutorials', 'Tutorial Videos', settings.VITE_TUTORIALS_URL],
    ['community', 'Community Chat', settings.VITE_COMMUNITY_URL],
  ];
  return candidates.flatMap(([id, label, href]) => (href && isHttpUrl(href) ? [{ id, label, href }] : []));
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export const helpLinks = helpLinksFrom(import.meta.env);
