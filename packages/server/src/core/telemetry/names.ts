/**
 * The names this server's telemetry uses: the OpenTelemetry MCP semantic conventions' attributes and
 * metrics, and our own metrics, named in the same style. One place, so spans, metrics and the docs agree.
 */

/** Attribute keys of the MCP conventions (and the general ones they borrow). */
export const Attr = {
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  statusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  /** The method a client named, on a span whose `mcp.method.name` is `_OTHER` (the RPC conventions' key). */
  methodOriginal: 'rpc.method_original',
  /** Ours: the task a span is the lifetime of, and how it ended (completed, failed, cancelled). */
  taskId: 'entropic.task.id',
  taskStatus: 'entropic.task.status',
} as const;

/** `error.type` of a `tools/call` answered with `isError: true` (the tool ran and failed). */
export const TOOL_ERROR = 'tool_error';

/** Buckets the conventions ask for, in seconds, for both duration histograms. */
export const DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/** Why a request was refused before it was served (the `reason` of `mcp.server.request.rejected`). */
export type RejectReason = 'auth' | 'limits' | 'validation';

export const Metric = {
  /** Convention: a request or notification, from receipt until its answer left (histogram, s). */
  operationDuration: 'mcp.server.operation.duration',
  /** Convention: a 2025 session, from initialize until its connection closed (histogram, s). */
  sessionDuration: 'mcp.server.session.duration',
  /** Ours: requests received and not answered yet (up-down counter). */
  requestsActive: 'mcp.server.request.active',
  /** Ours: requests waiting for a handler slot (observable up-down counter). */
  requestsQueued: 'mcp.server.request.queued',
  /** Ours: 2025 sessions initialized and not closed (up-down counter). */
  sessionsActive: 'mcp.server.session.active',
  /** Ours: requests refused before they were served, by `reason` (counter). */
  requestsRejected: 'mcp.server.request.rejected',
} as const;
