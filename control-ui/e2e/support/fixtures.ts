// The `test` of every flow that opens a studio: when a flow fails, wherever it stopped, the studios it
// opened are closed, their broadcasts ended and their sessions freed. The stack has one media worker;
// a flow that failed half-way while live would otherwise hold it (and the local RTMP destination)
// and fail the flows after it for a reason that is not theirs.
import { test as base, type BrowserContext } from '@playwright/test';

const opened: { projectId: string; context: BrowserContext }[] = [];

/** Called by openNewStudio: the project's session is freed when the test ends. */
export function freeAfterTest(projectId: string, context: BrowserContext): void {
  opened.push({ projectId, context });
}

export const test = base.extend<{ freeOpenedSessions: void }>({
  freeOpenedSessions: [
    // Depends on the test's own context so that it ends before that context closes (teardown runs in
    // the reverse order of set-up): its requests carry the host's session cookie.
    async ({ context: _context }, use, testInfo) => {
      opened.splice(0);
      await use();
      const studios = opened.splice(0);
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
          // The flow closed its context itself: its sessions were freed with it or by the flow.
        }
      }
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
