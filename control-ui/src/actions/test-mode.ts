import {
  actAsAudienceEndpoint,
  getTestModeEndpoint,
  listDestinationsEndpoint,
  type AudienceAct,
  type AudienceActResult,
  type DestinationView,
  type OAuthProvider,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { messageOf } from './api-errors.ts';

export interface TestModeChannels {
  platforms: OAuthProvider[];
  destinations: DestinationView[];
}

/** The test-mode panel's data: which platforms are doubles, and the project's destinations on them. */
export async function loadTestModeChannels(projectId: string, client: HttpClient = httpClient): Promise<TestModeChannels | string> {
  try {
    const [{ platforms }, { destinations }] = await Promise.all([
      call(getTestModeEndpoint, {}, client),
      call(listDestinationsEndpoint, { params: { projectId } }, client),
    ]);
    return { platforms, destinations };
  } catch (err) {
    return messageOf(err);
  }
}

/** A viewer of a test-mode channel acts (chat, follow, sub, raid, cheer, Super Chat, comment); a string is the error in words. */
export async function actAsAudience(
  projectId: string,
  destinationId: string,
  act: AudienceAct,
  client: HttpClient = httpClient,
): Promise<AudienceActResult | string> {
  try {
    return await call(actAsAudienceEndpoint, { params: { projectId }, body: { destinationId, act } }, client);
  } catch (err) {
    return messageOf(err);
  }
}
