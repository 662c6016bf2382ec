export type { ResolvedLoadOptions } from './checks.js';
export { HOST_ERROR_CODES, type HostErrorCode, PluginError, type PluginErrorDetails } from './errors.js';
export { loadPlugin } from './load.js';
export type {
  CallOptions,
  Isolation,
  LoadOptions,
  Plugin,
  PluginAnswer,
  PluginDirective,
  PluginTool,
} from './types.js';
export { parseAnswer, parseToolList } from './validate.js';
