import { describe, expect, it } from 'vitest';
import { hasPermission, projectRoles } from './roles.ts';

describe('project roles (spec §6)', () => {
  it('lets host, cohost, contributor, guest and viewer join the room, and nobody else', () => {
    expect(projectRoles.filter((r) => hasPermission(r, 'join room'))).toEqual(['host', 'cohost', 'contributor', 'guest', 'viewer']);
    expect(hasPermission('impersonate', 'join room')).toBe(false);
    expect(hasPermission(null, 'join room')).toBe(false);
  });

  it('keeps broadcast management to hosts, cohosts and impersonation', () => {
    expect(projectRoles.filter((r) => hasPermission(r, 'manage broadcast'))).toEqual(['host', 'cohost', 'impersonate']);
    expect(hasPermission('guest', 'manage self')).toBe(true);
  });
});
