/**
 * The node:http adapter of the HTTP seam: an IncomingMessage seen as the endpoint's request view
 * (a ServerResponse already is a response sink). Express and Connect keep the URL as it came in
 * `originalUrl` when a mount strips it, and may have read the body into `req.body`.
 */

import type { IncomingMessage } from 'node:http';
import type { HttpHeaders, HttpRequest } from '../seam/view.js';
import { readMessage } from './body.js';

export class NodeRequest implements HttpRequest {
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  get method(): string {
    return this.#req.method ?? '';
  }

  get url(): string {
    const original = (this.#req as { originalUrl?: unknown }).originalUrl;
    return typeof original === 'string' ? original : (this.#req.url ?? '/');
  }

  get headers(): HttpHeaders {
    return this.#req.headers;
  }

  get secure(): boolean {
    return (this.#req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket?.remoteAddress;
  }

  get native(): IncomingMessage {
    return this.#req;
  }

  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(limit: number): Promise<unknown> {
    return readMessage(this.#req, limit);
  }
}
