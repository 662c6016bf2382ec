/** The kind of a POSTed message as the HTTP handler routes it, by the core's one JSON-RPC classifier. */

import { answerableById, classify as classifyMessage, Kind as MessageKind } from '../../core/envelope.js';

export type Kind = 'request' | 'notification' | 'response';

/** The kind of a message (undefined when it is none of them). */
export function messageKind(message: unknown): Kind | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  switch (classifyMessage(message as Record<string, unknown>)) {
    case MessageKind.Request:
      return 'request';
    case MessageKind.Notification:
      return 'notification';
    case MessageKind.Response:
      return 'response';
    default: {
      // A request the core refuses by its id (bad params) is still answered on its own stream.
      return answerableById(message as Record<string, unknown>) ? 'request' : undefined;
    }
  }
}
