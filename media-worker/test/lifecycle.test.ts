import { fileURLToPath } from 'node:url';
import { testRedisUrl } from '@onair/embedded/test-services';
import { describeWorkerLifecycle } from '@onair/runtime/testkit';

describeWorkerLifecycle('media', fileURLToPath(new URL('..', import.meta.url)), testRedisUrl);
