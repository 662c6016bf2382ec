/**
 * The shared plugin suite against the in-process mode. A crash takes the process down and a call inside C
 * cannot be interrupted, so the crash, hang and memory-limit cases (capabilities of the isolated mode) do not
 * apply; the in-process specific promises are in inprocess-threads and inprocess-lifecycle.
 */
import { runPluginSuite } from './support/suite/plugin-cases.js';

runPluginSuite({ isolation: 'none', capabilities: { crashes: false, hangs: false, memoryLimit: false } });
