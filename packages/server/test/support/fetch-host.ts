/**
 * Serves a fetch handler on a real socket for tests: @hono/node-server's `serve({ fetch })` on a
 * free port of 127.0.0.1, the way a Node deployment of a fetch handler would run.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface FetchHost {
  /** The endpoint URL, `http://127.0.0.1:<port><path>`. */
  readonly url: string;
  close(): Promise<void>;
}

export function hostFetch(
  fetch: (request: Request) => Response | Promise<Response>,
  path = '/mcp',
  onClose?: () => Promise<void>,
): Promise<FetchHost> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, (info) => {
      resolve({
        url: `http://127.0.0.1:${(info as AddressInfo).port}${path}`,
        async close() {
          await onClose?.();
          (server as Server).closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
