// A vitest reporter for `./onair test`: the wall time of each test file, written as JSON lines to
// the file named by ONAIR_FILE_TIMES. The json reporter's startTime/endTime span the tests only, so
// a file's beforeAll/afterAll (where most real-service files start and stop their processes) and its
// import would not count; this one adds every phase vitest reports for the module.
import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  file: string;
  seconds: number;
}

export default class FileTimesReporter implements Reporter {
  onTestModuleEnd(module: TestModule): void {
    const out = process.env.ONAIR_FILE_TIMES;
    if (!out) return;
    const d = module.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    const line: FileTime = { file: module.moduleId, seconds: ms / 1000 };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }
}
