// The permission table of the partner network, walked for every partner endpoint: generated from
// protocol's partnerEndpoints and channelCapabilities, so a new endpoint is covered (or fails
// here for want of a sample) without anyone remembering to add a case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelCapabilities, partnerEndpoints, permissionGroups, type ChannelCapability, type Endpoint, type PermissionGroup } from '@onair/protocol';
import { mountedEndpoints } from '../src/app.ts';
import { collaboratorWith } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let owner: TestUser;
let otherOwner: TestUser;

beforeAll(async () => {
  api = await startStudioApi();
  owner = await createTestUser(api);
  otherOwner = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
});

/** Sample values of path parameters; an endpoint with a parameter not listed here fails the test until one is added. */
function pathOf(endpoint: Endpoint, channelId: string): string {
  return endpoint.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'channelId') return channelId;
    if (name === 'inviteId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'providerId') return 'twitch';
    if (name === 'userId') return owner.id;
    if (name === 'grantId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'exportId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'itemId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'raffleId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'overlayId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'methodId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'creatorId') return owner.id;
    throw new Error(`${endpoint.id}: no sample value for :${name} in partner-access.test.ts`);
  });
}

const method = (e: Endpoint) => e.method.toUpperCase();
const channelEndpoints = partnerEndpoints.filter((e) => e.channelCapability);

/** The groups that grant a capability, and every group that does not. */
function groupsFor(capability: ChannelCapability): { granting: PermissionGroup[]; other: PermissionGroup[] } {
  const needs: string | readonly string[] = channelCapabilities[capability];
  const granting =
    needs === 'owner'
      ? []
      : needs === 'any group'
        ? [...permissionGroups]
        : permissionGroups.filter((g) => (typeof needs === 'string' ? g === needs : needs.includes(g)));
  return { granting, other: permissionGroups.filter((g) => !granting.includes(g)) };
}

describe('the partner permission table', () => {
  it('mounts every partner endpoint, and every channel endpoint names a capability of the table', () => {
    for (const endpoint of partnerEndpoints) expect(mountedEndpoints).toContain(endpoint);
    for (const endpoint of partnerEndpoints) {
      if (endpoint.path.includes(':channelId')) expect(Object.keys(channelCapabilities), endpoint.id).toContain(endpoint.channelCapability);
    }
    expect(channelEndpoints.length).toBeGreaterThan(0);
  });

  it.each(partnerEndpoints.filter((e) => e.access !== 'public').map((e) => [e.id, e] as const))(
    '%s refuses a signed-out caller (401 with words)',
    async (_id, endpoint) => {
      const res = await call(api, null, method(endpoint), pathOf(endpoint, owner.id), endpoint.method === 'get' ? undefined : {});
      expect(res).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'You need to sign in first.' } } });
    },
  );

  it.each(channelEndpoints.map((e) => [e.id, e] as const))(
    '%s: the owner yes, a collaborator of another channel no, a collaborator without the group no, with it yes',
    async (_id, endpoint) => {
      const capability = endpoint.channelCapability!;
      const path = pathOf(endpoint, owner.id);
      const body = endpoint.method === 'get' ? undefined : {};
      const allowed = (status: number) => status !== 401 && status !== 403;

      expect((await call(api, owner, method(endpoint), path, body)).status).toSatisfy(allowed);

      // Every group, but on someone else's channel.
      const elsewhere = await collaboratorWith(api, otherOwner, [...permissionGroups]);
      expect(await call(api, elsewhere.user, method(endpoint), path, body)).toMatchObject({
        status: 403,
        body: { error: { code: 'FORBIDDEN', message: 'You are not a collaborator of this channel. Ask its owner for an invitation.' } },
      });

      // Any signed-in stranger gets the same words.
      const stranger = await createTestUser(api);
      expect((await call(api, stranger, method(endpoint), path, body)).status).toBe(403);

      const { granting, other } = groupsFor(capability);
      if (other.length > 0) {
        const without = await collaboratorWith(api, owner, other);
        const refused = await call(api, without.user, method(endpoint), path, body);
        expect(refused.status).toBe(403);
        expect((refused.body as { error: { message: string } }).error.message).toMatch(
          /^Your access to this channel does not include .+\. Ask the channel owner to grant it\.$/,
        );
      }
      for (const group of granting) {
        const holder = await collaboratorWith(api, owner, [group]);
        expect((await call(api, holder.user, method(endpoint), path, body)).status, `${endpoint.id} with ${group}`).toSatisfy(allowed);
      }
    },
  );
});
