// The in-process addon as a module of its own (`@entropic-mcp/loader/addon`): loading it, where the native parts are
// looked for, and the private stdio an application sets up before it loads in-process plugins.
export { type Addon, loadAddon } from './binding.js';
export { hostCandidates, PACKAGE_NAME, packageRoot, platformLabel, resolveAddon } from './native-files.js';
export { type PrivateStdio, protectStdio, setStdioAside } from './stdio.js';
