import { describe, expect, it } from 'vitest';
import { deletionWords } from './RecordingsPage.tsx';

describe("a recording's deletion date (issue 52)", () => {
  it("reads 'Kept until …' for a date to come, never 'Deleted' for the future", () => {
    const now = Date.parse('2026-12-07T12:00:00.000Z');
    const future = deletionWords('2027-01-06T12:00:00.000Z', now);
    expect(future).toMatch(/^Kept until /);
    expect(future).toContain('2027');
    expect(future).not.toContain('Deleted');
    expect(deletionWords('2026-12-01T12:00:00.000Z', now)).toBe('Being deleted (its time is up)');
  });
});
