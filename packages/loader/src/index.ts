// Public surface of @entropic-mcp/loader: loading, mounting and serving plugins.
export {
  findCollisions,
  type MountEntry,
  mountPlugin,
  mountPlugins,
  ToolCollisionError,
  ToolRegistrationError,
  toolName,
} from './bridge/mount.js';
export {
  answerToResult,
  DIRECTIVES_META_KEY,
  ERROR_META_KEY,
  errorToResult,
  PLUGIN_META_KEY,
} from './bridge/result.js';
export type {
  BridgeToolContext,
  BridgeToolDefinition,
  BridgeToolHandler,
  BridgeToolResult,
  DirectiveSource,
  DirectivesHook,
  MountOptions,
  ToolHost,
} from './bridge/types.js';
export type { ResolvedLoadOptions } from './checks.js';
export { HOST_ERROR_CODES, type HostErrorCode, PluginError, type PluginErrorDetails } from './errors.js';
export type { InProcessPlugin } from './inprocess/index.js';
export { loadPlugin } from './load.js';
export { sandboxSupport } from './sandbox/probe.js';
export { type BannerInput, clientConfig, formatBanner } from './serve/banner.js';
export {
  parseHttpAddress,
  parseServeArgs,
  type ServeArgs,
  type ServeTransport,
  UsageError,
} from './serve/config/args.js';
export { ConfigError, loadServeConfig, parseServeConfig } from './serve/config/parse.js';
export { resolveServePlan, type ServePlan } from './serve/config/plan.js';
export type { PluginEntry, ServeFileConfig } from './serve/config/types.js';
export {
  describeLoadFailure,
  type FailedPlugin,
  type LoadedPlugin,
  type LoadOutcome,
  loadAll,
} from './serve/load-all.js';
export { type ServeHandle, ServeStartError, type StartOptions, startServe } from './serve/start.js';
export type { RegisterTools, ToolsModuleContext } from './serve/tools-modules.js';
export type {
  CallerInfo,
  CallOptions,
  CallReply,
  CallVoice,
  Isolation,
  LoadOptions,
  Plugin,
  PluginAnswer,
  PluginDirective,
  PluginTool,
  SandboxOptions,
  SandboxReport,
  SandboxSupport,
} from './types.js';
export { parseAnswer, parseToolList } from './validate.js';
