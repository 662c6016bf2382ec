/** initialize, ping and logging/setLevel. */

import { ErrorCode, McpError } from '../errors.js';
import type { MethodContext } from '../host.js';
import { isLogLevel, levelRank } from '../logging.js';
import { invalidParams, optionalObject, requireString } from '../params.js';
import { negotiateVersion } from '../protocol.js';
import type { ClientCapabilities, Implementation } from '../types.js';

const EMPTY_RESULT = Object.freeze({});

export function initialize(req: MethodContext): unknown {
  const session = req.session;
  const requested = requireString(req.params, 'protocolVersion', 'initialize');
  const capabilities = (optionalObject(req.params, 'capabilities', 'initialize') ?? {}) as ClientCapabilities;
  const info = optionalObject(req.params, 'clientInfo', 'initialize') as Implementation | undefined;
  if (session.client !== undefined) {
    throw new McpError(ErrorCode.InvalidRequest, 'Invalid Request: this connection is already initialized');
  }
  const protocolVersion = negotiateVersion(requested);
  session.client = Object.freeze({ protocolVersion, capabilities, info });
  const server = session.server;
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities: server.capabilities('legacy'),
    serverInfo: server.wireInfo,
  };
  if (server.info.instructions !== undefined) result.instructions = server.info.instructions;
  return result;
}

export function ping(): unknown {
  return EMPTY_RESULT;
}

export function setLevel(req: MethodContext): unknown {
  const level = req.params?.level;
  if (!isLogLevel(level)) {
    throw invalidParams(
      'logging/setLevel needs params.level as one of debug, info, notice, warning, error, critical, alert, emergency',
      '/params/level',
    );
  }
  req.session.logFloor = levelRank(level);
  return EMPTY_RESULT;
}
