// A bounded HTTP load run that works on one machine (k6 is not installable here):
//   npm run http -w load-tests -- http://127.0.0.1:8080/readyz [concurrency=16] [seconds=10]
// Only loopback targets are accepted, so it can never be pointed at someone else's server by accident.
import { percentiles } from './stats.ts';

const [target = 'http://127.0.0.1:8080/readyz', concurrencyArg = '16', secondsArg = '10'] = process.argv.slice(2);
const url = new URL(target);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
  console.error('http-load only targets loopback addresses; use the k6 scripts in load-tests/k6 for a deployment.');
  process.exit(2);
}
const concurrency = Math.min(256, Math.max(1, Number(concurrencyArg)));
const seconds = Math.min(300, Math.max(1, Number(secondsArg)));
const deadline = Date.now() + seconds * 1000;
const latencies: number[] = [];
const statuses = new Map<number, number>();
let errors = 0;

async function loop(): Promise<void> {
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      latencies.push(performance.now() - started);
    } catch {
      errors += 1;
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, loop));
const p = percentiles(latencies, [50, 95, 99]);
process.stdout.write(
  `${url.pathname}: ${latencies.length} requests in ${seconds} s (${(latencies.length / seconds).toFixed(0)} req/s) at concurrency ${concurrency}\n` +
    `latency ms p50 ${p.p50?.toFixed(1)} p95 ${p.p95?.toFixed(1)} p99 ${p.p99?.toFixed(1)}; statuses ${JSON.stringify(Object.fromEntries(statuses))}; errors ${errors}\n`,
);
