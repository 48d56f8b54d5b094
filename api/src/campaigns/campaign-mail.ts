import { escapeHtml, layout } from '../mail/templates.ts';

interface Mail {
  subject: string;
  text: string;
  html: string;
}

const BUTTON = 'display:inline-block;padding:12px 20px;background:#e5484d;color:#fff;border-radius:8px;text-decoration:none;font-weight:600';

const mail = (subject: string, lines: string[], url: string, action: string): Mail => ({
  subject,
  text: `${lines.join('\n\n')}\n\n${action}: ${url}\n`,
  html: layout(
    subject,
    `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(url)}" style="${BUTTON}">${escapeHtml(action)}</a></p>`,
  ),
});

/** The campaign notifications of issue 25: an invitation, an acceptance, keys to claim. */
export const campaignMail = {
  invited: (campaign: string, url: string) =>
    mail(
      `You are invited to ${campaign}`,
      [`The OnAir partner team invites you to the campaign ${campaign}.`, 'Open it to read the details and accept or decline.'],
      url,
      'Open the campaign',
    ),
  accepted: (campaign: string, url: string, keysOpen: boolean) =>
    mail(
      `You are in: ${campaign}`,
      [`Your application to ${campaign} was accepted.`, keysOpen ? 'You can claim your game key now.' : 'We will write again when the keys can be claimed.'],
      url,
      'Open the campaign',
    ),
  keysAvailable: (campaign: string, url: string) =>
    mail(`Your key for ${campaign} is ready`, [`Game keys of ${campaign} can be claimed now.`], url, 'Claim your key'),
};
