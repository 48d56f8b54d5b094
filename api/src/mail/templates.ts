import type { OutgoingMail } from './mailer.ts';

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="margin:0;background:#0f1115;font-family:system-ui,sans-serif;color:#e8eaf0">
<div style="max-width:480px;margin:32px auto;padding:32px;background:#181b22;border-radius:12px">
<div style="font-weight:700;font-size:18px;letter-spacing:.02em;margin-bottom:24px">OnAir</div>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}
<p style="color:#8b90a0;font-size:12px;margin-top:32px">If you did not ask for this, you can ignore this e-mail.</p></div></body></html>`;
}

/** A layout() mail with its closing note replaced by `footerHtml` (the unsubscribe line of a preference mail). */
export function withFooter(html: string, footerHtml: string): string {
  const note = html.lastIndexOf('<p style="color:#8b90a0;font-size:12px;margin-top:32px">');
  const end = html.lastIndexOf('</div></body></html>');
  const footer = `<p style="color:#8b90a0;font-size:12px;margin-top:32px">${footerHtml}</p>`;
  if (end < 0) return `${html}${footer}`;
  return `${html.slice(0, note >= 0 && note < end ? note : end)}${footer}</div></body></html>`;
}

export type CodePurpose = 'sign-in' | 'email-verification' | 'change-email' | 'forget-password';

const codeTitles: Record<CodePurpose, string> = {
  'sign-in': 'Your sign-in code',
  'email-verification': 'Confirm your e-mail address',
  'change-email': 'Confirm your new e-mail address',
  'forget-password': 'Your account recovery code',
};

export function codeMail(to: string, code: string, purpose: CodePurpose, minutes: number): OutgoingMail {
  const title = codeTitles[purpose];
  return {
    to,
    subject: `${title}: ${code}`,
    text: `${title}: ${code}\n\nThe code works once and expires in ${minutes} minutes.`,
    html: layout(
      title,
      `<p>Enter this code in OnAir:</p><p style="font-size:32px;font-weight:700;letter-spacing:.3em;margin:16px 0">${escapeHtml(code)}</p><p>It works once and expires in ${minutes} minutes.</p>`,
    ),
  };
}

export function magicLinkMail(to: string, url: string, minutes: number): OutgoingMail {
  return {
    to,
    subject: 'Your OnAir sign-in link',
    text: `Sign in to OnAir: ${url}\n\nThe link works once and expires in ${minutes} minutes.`,
    html: layout(
      'Sign in to OnAir',
      `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;background:#e5484d;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">Sign in</a></p><p>The link works once and expires in ${minutes} minutes.</p>`,
    ),
  };
}

const roleWords: Record<string, string> = { cohost: 'a co-host', contributor: 'a contributor', viewer: 'a viewer' };

export function roleInvitationMail(to: string, projectName: string, role: string, acceptUrl: string, days: number): OutgoingMail {
  const title = `You are invited to be ${roleWords[role] ?? role} of ${projectName}`;
  return {
    to,
    subject: `${title} on OnAir`,
    text: `${title} on OnAir.\n\nAccept the invitation, signed in with this address: ${acceptUrl}\n\nThe invitation works once and expires in ${days} days.`,
    html: layout(
      title,
      `<p>Accept the invitation while signed in to OnAir with this address to open the project as ${escapeHtml(roleWords[role] ?? role)}.</p><p><a href="${escapeHtml(acceptUrl)}" style="display:inline-block;padding:12px 20px;background:#e5484d;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">Accept invitation</a></p><p>The invitation works once and expires in ${days} days.</p>`,
    ),
  };
}
