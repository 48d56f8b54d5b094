import { permissionGroupLabels, type PermissionGroup } from '@onair/protocol';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { escapeHtml } from '../../mail/templates.ts';

const button = (href: string, label: string, primary: boolean) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;margin-right:8px;background:${primary ? '#e5484d' : '#2a2f3a'};color:#fff;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a>`;

/** The invitation of partner spec §3: who invites, their message, the groups, Accept and 'Decline Collaboration Invite'. */
export function collaboratorInviteMail(input: {
  to: string;
  channelName: string;
  message: string;
  permissions: readonly PermissionGroup[];
  acceptUrl: string;
  declineUrl: string;
}): OutgoingMail {
  const title = `${input.channelName} invited you to collaborate on their channel`;
  const groups = input.permissions.map((g) => `${permissionGroupLabels[g].area}: ${permissionGroupLabels[g].label}`);
  const quoted = input.message ? `\n\nTheir message:\n${input.message}` : '';
  return {
    to: input.to,
    subject: `${title} on OnAir`,
    text: `${title} on OnAir.${quoted}\n\nYou would be able to:\n${groups.map((g) => `- ${g}`).join('\n')}\n\nAccept (you need a connected Twitch account): ${input.acceptUrl}\nDecline Collaboration Invite: ${input.declineUrl}`,
    html: `<!doctype html><html><body style="margin:0;background:#0f1115;font-family:system-ui,sans-serif;color:#e8eaf0">
<div style="max-width:480px;margin:32px auto;padding:32px;background:#181b22;border-radius:12px">
<div style="font-weight:700;font-size:18px;margin-bottom:24px">OnAir</div>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${input.message ? `<blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #3a3f4b;white-space:pre-wrap">${escapeHtml(input.message)}</blockquote>` : ''}
<p>You would be able to:</p><ul>${groups.map((g) => `<li>${escapeHtml(g)}</li>`).join('')}</ul>
<p>${button(input.acceptUrl, 'Accept', true)}${button(input.declineUrl, 'Decline Collaboration Invite', false)}</p>
<p style="color:#8b90a0;font-size:12px">Accepting needs a connected Twitch account.</p></div></body></html>`,
  };
}
