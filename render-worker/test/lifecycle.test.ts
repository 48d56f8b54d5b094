import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { startWorkerProcess } from '@onair/runtime/testkit';

describe('render worker process', () => {
  it('registers with a heartbeat and deregisters cleanly on SIGTERM', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const worker = startWorkerProcess('render', 'src/main.ts', cwd, testRedisUrl());
    const first = await worker.waitForRegistration();
    expect(first).toMatchObject({ id: worker.id, kind: 'render', state: 'running', pid: worker.child.pid });
    expect(first.cores).toBeGreaterThan(0);
    // The record is refreshed: a later heartbeat carries a later timestamp.
    await new Promise((r) => setTimeout(r, 1500));
    const later = await worker.waitForRegistration();
    expect(Date.parse(later.sentAt)).toBeGreaterThan(Date.parse(first.sentAt));

    const { code, registeredAfterExit } = await worker.stop();
    expect(code).toBe(0);
    expect(registeredAfterExit).toBe(false);
    expect(worker.output.join('')).toContain('stopped cleanly');
  });
});
