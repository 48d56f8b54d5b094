// k6 smoke load for a real deployment: k6 run -e BASE_URL=https://onair.example.com load-tests/k6/health.js
/* global __ENV */
import http from 'k6/http';
import { check } from 'k6';

export const options = {
  scenarios: { probes: { executor: 'constant-vus', vus: 20, duration: '1m' } },
  thresholds: { http_req_failed: ['rate<0.01'], http_req_duration: ['p(95)<200'] },
};

const base = __ENV.BASE_URL || 'http://127.0.0.1:8080';

export default function () {
  const live = http.get(`${base}/healthz`);
  check(live, { 'healthz is 200': (r) => r.status === 200 });
  const ready = http.get(`${base}/readyz`);
  check(ready, { 'readyz is 200': (r) => r.status === 200 });
}
