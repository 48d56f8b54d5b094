import { fileURLToPath } from 'node:url';
import { testRedisUrl } from '@onair/embedded/test-services';
import { describeWorkerLifecycle } from '@onair/runtime/testkit';

describeWorkerLifecycle('render', fileURLToPath(new URL('..', import.meta.url)), testRedisUrl);
