// Public surface of @entropic-mcp/serve: the `entropic-mcp serve` application as a library (read its options and
// YAML config, resolve one plan, load the plugins, start serving).

export {
  parseHttpAddress,
  parseServeArgs,
  type ServeArgs,
  type ServeTransport,
} from './config/args.js';
export { ServeError, UsageError } from './config/errors.js';
export { ConfigError, loadServeConfig, parseServeConfig } from './config/parse.js';
export { resolveServePlan, type ServePlan } from './config/plan.js';
export type { PluginEntry, ServeFileConfig } from './config/types.js';
export { type BannerInput, clientConfig, formatBanner } from './run/banner.js';
export {
  describeLoadFailure,
  type FailedPlugin,
  type LoadedPlugin,
  type LoadOutcome,
  loadAll,
} from './run/load-all.js';
export { type ServeHandle, ServeStartError, type StartOptions, startServe } from './run/start.js';
export type { RegisterTools, ToolsModuleContext } from './run/tools-modules.js';
