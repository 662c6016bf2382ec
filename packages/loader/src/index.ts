// Public surface of @entropic-mcp/loader: loading plugins and mounting their tools on a server.

export {
  HOST_ERROR_CODES,
  type HostErrorCode,
  LoaderError,
  PluginError,
  type PluginErrorDetails,
} from './base/errors.js';
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
} from './base/types.js';
export { parseAnswer, parseToolList } from './base/validate.js';
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
export type { ResolvedLoadOptions } from './hosting/checks.js';
export type { InProcessPlugin } from './inprocess/index.js';
export { loadPlugin } from './load.js';
export { sandboxSupport } from './sandbox/probe.js';
