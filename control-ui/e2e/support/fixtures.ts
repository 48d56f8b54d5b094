// The `test` of every flow that opens a studio: no broadcast outlives the flow (or the file) that
// started it. The stack has one media worker; a flow that failed half-way while live would otherwise
// hold it (and the local RTMP destination) and fail the flows after it for a reason that is not theirs.
//
// Two nets:
// - a test that failed frees the studios it opened at once (its own context still carries the cookie);
// - when the run moves on to another spec file, every studio the earlier files opened is freed: a
//   serial file hands its live studio from test to test and ends it in afterAll, and an afterAll that
//   failed (or a worker restarted after a failure, which closes the pages but not the broadcast)
//   would otherwise leave it live.
// The studios opened are listed in a file beside the stack's data (ONAIR_E2E_OPENED, set by
// global-setup), with the cookies of their owners: a worker that restarted still finds the earlier
// workers' studios, and frees them as their owners although the flows' browser contexts are gone. A
// worker never frees the studios of the file it is running (it may be a serial file resumed in a new
// worker whose live studio is still in use).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as playwrightRequest, test as base, type BrowserContext } from '@playwright/test';

type Cookies = Awaited<ReturnType<BrowserContext['storageState']>>;
type Opened = { projectId: string; file: string; cookies: Cookies };

/** Studios opened by the running test (freed at once if it fails). */
const openedByTest: { projectId: string; context: BrowserContext }[] = [];
let currentFile = '';

const registry = (): string | undefined => process.env.ONAIR_E2E_OPENED;

/** Called by openNewStudio: the project's session is freed when the test fails, or when its file is done. */
export async function freeAfterTest(projectId: string, context: BrowserContext): Promise<void> {
  openedByTest.push({ projectId, context });
  const path = registry();
  // The file of the test (or hook) running now; a beforeAll runs before this worker's first test.
  let file = currentFile;
  try {
    file = base.info().file;
  } catch {
    // Outside a test or hook: the last test's file.
  }
  if (path) appendFileSync(path, `${JSON.stringify({ projectId, file, cookies: await context.storageState() } satisfies Opened)}\n`);
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

/** Frees every listed studio of a file other than `file`, and keeps the list to `file`'s. */
async function freeOtherFiles(file: string): Promise<void> {
  const path = registry();
  if (!path || !existsSync(path)) return;
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Opened);
  const others = entries.filter((e) => e.file !== file);
  if (others.length === 0) return;
  writeFileSync(
    path,
    entries
      .filter((e) => e.file === file)
      .map((e) => `${JSON.stringify(e)}\n`)
      .join(''),
  );
  for (const entry of others) await freeWithCookies(entry);
}

export const test = base.extend<{ freeOpenedSessions: void }>({
  freeOpenedSessions: [
    // Depends on the test's own context so that it ends before that context closes (teardown runs in
    // the reverse order of set-up): its requests carry the host's session cookie.
    async ({ context: _context }, use, testInfo) => {
      if (testInfo.file !== currentFile) await freeOtherFiles(testInfo.file);
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
          // The flow closed its context itself: the next file frees it with the recorded cookies.
        }
      }
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
