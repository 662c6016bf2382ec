/** The task outcome suite (test/support/task-server-suite.ts) on the default in-memory task store. */

import { MemoryTaskStore } from '../src/index.js';
import { taskServerSuite } from './support/task-server-suite.js';

taskServerSuite('MemoryTaskStore', { makeStore: () => new MemoryTaskStore() });
