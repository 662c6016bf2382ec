import { runPluginSuite } from './suite/plugin-cases.js';

runPluginSuite({ isolation: 'process', capabilities: { crashes: true, hangs: true, memoryLimit: true } });
