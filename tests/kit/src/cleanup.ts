/**
 * Setup file of the test lanes (vitest.config.ts): once a test file's own afterAll hooks ran (hooks run in
 * reverse order, and this one is registered first), the temp folders it made through the kit are removed.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
