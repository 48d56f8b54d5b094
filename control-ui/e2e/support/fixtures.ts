// The `test` of every flow that opens a studio: no broadcast outlives the flow (or the file) that
// started it. The stack has one media worker; a flow that failed half-way while live would otherwise
// hold it (and the local RTMP destination) and fail the flows after it for a reason that is not theirs.
//
// Three nets, from the nearest to the widest:
// - a test that failed frees the studios it opened at once (its own context still carries the cookie);
// - when the run moves on to another spec file, every studio the earlier files opened is freed: a
//   serial file hands its live studio from test to test and ends it in afterAll, and an afterAll that
//   failed (or a worker restarted after a failure, which closes the pages but not the broadcast)
//   would otherwise leave it live;
// - when the worker process ends, whatever is left is freed.
// The later nets sign in again with the cookies recorded when the studio was opened, since the
// flow's own browser context may be closed by then.
import { request as playwrightRequest, test as base, type BrowserContext } from '@playwright/test';

type Opened = { projectId: string; context: BrowserContext; file: string; cookies: Awaited<ReturnType<BrowserContext['storageState']>> };

/** Studios opened by the running test (freed at once if it fails). */
const openedByTest: Opened[] = [];
/** Studios opened by every test of this worker that are not freed yet. */
const openedByWorker: Opened[] = [];
let currentFile = '';

/** Called by openNewStudio: the project's session is freed when the test fails, or when its file is done. */
export async function freeAfterTest(projectId: string, context: BrowserContext): Promise<void> {
  const entry: Opened = { projectId, context, file: currentFile, cookies: await context.storageState() };
  openedByTest.push(entry);
  openedByWorker.push(entry);
}

/** Ends the project's broadcast and closes its session, through the api, as its owner. */
async function freeWithCookies(entry: Opened): Promise<void> {
  const api = await playwrightRequest.newContext({ baseURL: process.env.ONAIR_E2E_URL, storageState: entry.cookies });
  try {
    const ended = await api.post(`/api/v1/projects/${entry.projectId}/broadcast/end`);
    // Said in the run's output: a file that leaves a broadcast live has a cleanup to mend.
    if (ended.ok()) process.stdout.write(`  (fixtures) a broadcast of ${entry.file.split('/').at(-1)} was still live after its file: ended now\n`);
    await api.delete(`/api/v1/projects/${entry.projectId}/session`);
  } catch {
    // The stack is already gone (the run's end): nothing is left to free.
  } finally {
    await api.dispose();
  }
}

async function freeEarlierFiles(file: string): Promise<void> {
  const earlier = openedByWorker.filter((o) => o.file !== file);
  if (earlier.length === 0) return;
  openedByWorker.splice(0, openedByWorker.length, ...openedByWorker.filter((o) => o.file === file));
  for (const entry of earlier) await freeWithCookies(entry);
}

export const test = base.extend<{ freeOpenedSessions: void }, { freeWorkerSessions: void }>({
  freeWorkerSessions: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      await freeEarlierFiles('');
    },
    { auto: true, scope: 'worker' },
  ],
  freeOpenedSessions: [
    // Depends on the test's own context so that it ends before that context closes (teardown runs in
    // the reverse order of set-up): its requests carry the host's session cookie.
    async ({ context: _context }, use, testInfo) => {
      if (testInfo.file !== currentFile) await freeEarlierFiles(testInfo.file);
      currentFile = testInfo.file;
      openedByTest.splice(0);
      await use();
      const studios = openedByTest.splice(0);
      // A flow that passed cleaned up after itself (serial flows hand their live studio to the next
      // test); one that failed may have stopped anywhere.
      if (testInfo.status === testInfo.expectedStatus) return;
      for (const { projectId, context } of studios) {
        try {
          // A studio left open would open the session again.
          for (const page of context.pages()) await page.close();
          await context.request.post(`/api/v1/projects/${projectId}/broadcast/end`);
          await context.request.delete(`/api/v1/projects/${projectId}/session`);
        } catch {
          // The flow closed its context itself: the file's end frees it with the recorded cookies.
        }
      }
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
