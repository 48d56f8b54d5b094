import { serviceTestConfig } from '../vitest.shared.ts';

export default serviceTestConfig;
