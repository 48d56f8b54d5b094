import { ZipArchive } from 'archiver';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '@onair/db';

/** One table of the archive: its rows as plain values. */
export interface ExportTable {
  name: string;
  rows: Record<string, unknown>[];
}

/**
 * A spreadsheet opens a cell that starts with =, +, -, @, a tab or a carriage return as a formula
 * (CSV injection): such a cell is prefixed with a quote, which spreadsheets show as text.
 */
export function escapeCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return escapeCsvCell(JSON.stringify(value));
  return escapeCsvCell(String(value));
}

export function toCsv(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return stringify(
    rows.map((r) => columns.map((c) => cell(r[c]))),
    { header: true, columns },
  );
}

/**
 * Everything the account holds, table by table, without secrets: no stream keys, platform tokens,
 * session tokens, MFA secrets or decline-link hashes.
 */
export function exportSteps(db: Db, userId: string): { name: string; load: () => Promise<Record<string, unknown>[]> }[] {
  return [
    {
      name: 'account',
      load: async () => [
        await db.user.findUniqueOrThrow({
          where: { id: userId },
          select: {
            id: true,
            email: true,
            emailVerified: true,
            name: true,
            image: true,
            phoneNumber: true,
            twoFactorEnabled: true,
            labels: true,
            mailingSubscribed: true,
            mailingPreferences: true,
            createdAt: true,
            lastLoggedInAt: true,
          },
        }),
      ],
    },
    {
      name: 'partner_profile',
      load: async () => {
        const row = await db.partnerProfile.findUnique({ where: { userId }, omit: { id: true, userId: true, usernameKey: true } });
        return row ? [row] : [];
      },
    },
    {
      name: 'login_methods',
      load: () => db.account.findMany({ where: { userId }, select: { providerId: true, accountId: true, scope: true, createdAt: true } }),
    },
    {
      name: 'sessions',
      load: () => db.session.findMany({ where: { userId }, select: { createdAt: true, expiresAt: true, ipAddress: true, userAgent: true } }),
    },
    {
      name: 'subscriptions',
      load: () => db.subscription.findMany({ where: { userId }, select: { planId: true, itemPriceId: true, status: true, createdAt: true } }),
    },
    { name: 'projects', load: () => db.project.findMany({ where: { ownerId: userId }, select: { id: true, name: true, createdAt: true, updatedAt: true } }) },
    {
      name: 'destinations',
      load: () =>
        db.destination.findMany({ where: { project: { ownerId: userId } }, omit: { streamKeyEnc: true, accessTokenEnc: true, refreshTokenEnc: true } }),
    },
    {
      name: 'broadcasts',
      load: () =>
        db.broadcast.findMany({
          where: { project: { ownerId: userId } },
          select: { id: true, projectId: true, state: true, startedAt: true, endedAt: true, failureReason: true },
        }),
    },
    {
      name: 'collaborator_invites_sent',
      load: () => db.collaboratorInvite.findMany({ where: { channelOwnerId: userId }, omit: { declineTokenHash: true } }),
    },
    {
      name: 'collaborations',
      load: () =>
        db.collaboratorInvite.findMany({
          where: { collaboratorId: userId },
          select: { id: true, channelOwnerId: true, permissions: true, state: true, createdAt: true, answeredAt: true },
        }),
    },
  ];
}

/** A zip of `<table>.json` and `<table>.csv` for every table, and a README. */
export async function buildArchive(tables: ExportTable[], generatedAt: Date): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  zip.append(
    `Your OnAir data, exported ${generatedAt.toISOString()}.\n\nEach table comes twice: as JSON and as CSV (cells that a spreadsheet would run as a formula start with a quote).\nSecrets (stream keys, platform tokens, sign-in secrets) are never exported.\n`,
    { name: 'README.txt' },
  );
  for (const table of tables) {
    zip.append(JSON.stringify(table.rows, null, 2), { name: `json/${table.name}.json` });
    zip.append(toCsv(table.rows), { name: `csv/${table.name}.csv` });
  }
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}
