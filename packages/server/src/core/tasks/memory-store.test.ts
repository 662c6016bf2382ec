// MemoryTaskStore passes the shared TaskStore suite (the Redis store runs the same one).
import { taskStoreSuite } from '../../../test/support/task-store-suite.js';
import { MemoryTaskStore } from './memory-store.js';

taskStoreSuite('MemoryTaskStore', { make: () => new MemoryTaskStore() });
